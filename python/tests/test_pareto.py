"""SCCL's DGX-1 allgather frontier with the SAT backend: six points, each certificate folder
re-checked by `verify`, the same frontier as the command line's."""

import shutil

import commsched


def test_the_dgx1_allgather_frontier_is_certified(tmp_path, cli_json, cli):
    folder = tmp_path / "frontier"
    frontier = commsched.pareto("allgather", network="dgx1", max_chunks=6, method="sat", certificate=folder)
    assert frontier.exit_code == 0 and frontier.stop is None
    points = frontier.points
    assert [p.chunks for p in points] == [1, 2, 3, 4, 5, 6]
    assert all(p.folder and p.certificate for p in points)
    verified = commsched.verify(folder)
    assert verified, verified.folders
    assert all(str(p.folder) in verified.folders for p in points)
    assert cli("verify", folder)[0] == 0
    # The command line walks the same frontier.
    code, expected, _ = cli_json("pareto", "allgather", "--network", "dgx1", "--max-chunks", "6", "--method", "sat")
    assert code == 0
    mine = [(p.chunks, p.rounds, p.steps, p.rounds_per_chunk, p.certificate, p.pareto) for p in points]
    theirs = [(p["chunks"], p["rounds"], p["steps"], p["rounds_per_chunk"], p["certificate"], p["pareto"]) for p in expected["points"]]
    assert mine == theirs
    # A certificate that was tampered with is refused.
    spoilt = tmp_path / "spoilt"
    shutil.copytree(points[0].folder, spoilt)
    witness = next(p for p in spoilt.iterdir() if p.name != "manifest.json" and p.is_file())
    witness.write_bytes(witness.read_bytes() + b" ")
    refused = commsched.verify(spoilt)
    assert not refused and refused.exit_code == 1
    assert refused.folders[str(spoilt)]
