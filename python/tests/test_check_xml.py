"""`check_xml` against the command line's `check FILE.xml` on every file of the MSCCL corpus:
the same verdict, exit code and JSON object, or the same error."""

import pytest

import commsched
from conftest import ROOT

CORPUS = sorted((ROOT / "tests" / "data" / "msccl").glob("*.xml"))


def test_the_corpus_is_there():
    assert len(CORPUS) >= 20


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_check_xml_gives_the_cli_verdict(path, cli_json):
    code, expected, err = cli_json("check", path)
    if code == 2:
        with pytest.raises(commsched.CommschedError) as raised:
            commsched.check_xml(path)
        assert err.strip() == f"commsched: error: {raised.value}"
        return
    verdict = commsched.check_xml(path)
    assert verdict.exit_code == code
    assert verdict.to_dict() == expected
    assert bool(verdict) == (code == 0) == verdict.admissible


def test_check_xml_reads_text_as_a_file(cli_json):
    path = ROOT / "tests" / "data" / "msccl" / "lyd-allreduce-tree-2-simple.xml"
    code, expected, _ = cli_json("check", path)
    verdict = commsched.check_xml(path.read_text())
    assert verdict.exit_code == code
    assert verdict.status == expected["status"]
    assert verdict.violations == expected["violations"]


def test_a_network_and_a_collective_are_the_cli_flags(cli_json):
    path = ROOT / "tests" / "data" / "msccl" / "lyd-allreduce-tree-4-simple.xml"
    code, expected, err = cli_json("check", path, "--network", "ring:4")
    verdict = commsched.check_xml(str(path), network=commsched.Network("ring:4"))
    assert (verdict.exit_code, verdict.to_dict()) == (code, expected)
