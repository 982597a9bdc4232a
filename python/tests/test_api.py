"""Instances, solves, decisions, bounds, schedules to XML and back, and errors: each answer is
the command line's JSON object, each mistake a Python exception."""

import os
import signal
import subprocess
import sys
import time

import pytest

import commsched


@pytest.fixture(scope="module")
def allgather(tmp_path_factory):
    return commsched.Instance.allgather("ring:4", chunks=2)


def test_an_instance_is_gen_output_and_round_trips(allgather, tmp_path, cli):
    code, toml, _ = cli("gen", "allgather", "--network", "ring:4", "--chunks", "2")
    assert code == 0 and allgather.to_toml() == toml
    allgather.save(tmp_path / "i.toml")
    assert commsched.Instance.load(tmp_path / "i.toml").to_toml() == toml


def test_solve_answers_as_the_cli_does(allgather, cli_json):
    answer = commsched.solve(allgather, "sat", timeout=30)
    code, expected, _ = cli_json("solve", allgather.path, "--method", "sat", "--timeout", "30")
    assert (answer.exit_code, answer.status, answer.length, answer.certificate) == (
        code,
        expected["status"],
        expected["length"],
        expected["certificate"],
    )
    assert answer.certified and answer.rounds is not None


def test_a_solved_schedule_exports_to_xml_that_checks(allgather, tmp_path):
    schedule = commsched.solve(allgather, "exact").schedule
    assert schedule is not None
    xml = schedule.to_xml(proto="LL")
    assert xml.lstrip().startswith("<algo")
    verdict = commsched.check_xml(xml, network="ring:4")
    assert verdict, verdict.violations
    schedule.save(tmp_path / "s.json")
    assert commsched.check(allgather, tmp_path / "s.json")
    assert commsched.check(allgather, schedule).admissible


def test_a_wrong_schedule_is_a_verdict_with_violations(allgather, tmp_path):
    schedule = commsched.solve(allgather, "exact").schedule
    data = schedule.to_dict()
    text = schedule.to_json()
    # Drop the last step (and its round count): the collective is left unfinished.
    data["steps"] = data["steps"][:-1]
    if "rounds" in data:
        data["rounds"] = data["rounds"][:-1]
    import json

    broken = commsched.Schedule(allgather, json.dumps(data))
    assert text != broken.to_json()
    verdict = commsched.check(allgather, broken)
    assert not verdict and verdict.exit_code == 1 and verdict.violations


def test_a_point_is_decided(allgather):
    least = commsched.solve(allgather, "sat").length
    yes = commsched.solve(allgather, "sat", steps=least)
    no = commsched.solve(allgather, "sat", steps=least - 1)
    assert (yes.status, no.status) == ("feasible", "infeasible")
    assert yes.schedule is not None and no.schedule is None


def test_a_witness_under_a_round_budget_is_a_schedule_of_that_budget(allgather):
    best = commsched.solve(allgather, "sat")
    point = commsched.solve(allgather, "sat", steps=best.length, rounds=best.rounds)
    assert point.status == "feasible" and point.rounds == best.rounds
    witness = point.schedule
    assert f"rounds = {best.rounds}" in witness.instance.to_toml()
    assert commsched.check(witness.instance, witness)
    assert commsched.check_xml(witness.to_xml(), network="ring:4")


def test_bounds(allgather, cli_json):
    code, expected, _ = cli_json("bounds", allgather.path)
    got = commsched.bounds(allgather)
    assert got.to_dict() == expected


def test_a_bad_value_is_the_cli_error(allgather, cli):
    with pytest.raises(commsched.InputError) as raised:
        commsched.solve(allgather, "exact", timeout=0)
    assert isinstance(raised.value, ValueError)
    code, _, err = cli("solve", allgather.path, "--method", "exact", "--timeout", "0")
    assert code == 2 and err.strip() == f"commsched: error: {raised.value}"
    with pytest.raises(commsched.InputError, match="unknown method"):
        commsched.solve(allgather, "fastest")
    with pytest.raises(commsched.InputError):
        commsched.Network("nowhere:3")
    with pytest.raises(commsched.CommschedError):
        commsched.Instance.load("/nonexistent/instance.toml")


@pytest.mark.parametrize(
    "call",
    [
        lambda i: commsched.solve(i, steps="3"),
        lambda i: commsched.solve(i, timeout=None),
        lambda i: commsched.solve(i, 3),
        lambda i: commsched.check_xml(42),
        lambda i: commsched.check(i, 3.5),
        lambda i: commsched.pareto("allgather", network="dgx1", max_chunks=1.5),
        lambda i: commsched.Instance.allgather("ring:4", chunks="2"),
        lambda i: commsched.Instance.allgather("ring:4", chunk=2),
        lambda i: commsched.solve(),
        lambda i: commsched.Network(None),
    ],
)
def test_a_mistyped_call_is_a_type_error(allgather, call):
    with pytest.raises(TypeError):
        call(allgather)


def test_an_interrupt_stops_a_long_solve():
    # A search that runs for minutes: allgather's frontier on a DGX-1 with the ILP backend.
    script = (
        "import commsched, sys\n"
        "print('started', flush=True)\n"
        "try:\n"
        "    commsched.pareto('allgather', network='dgx1', max_chunks=8, method='ilp', timeout=600)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "started"
    time.sleep(2)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 3 and "interrupted" in out
    assert time.monotonic() - sent < 5


def test_verify_and_report(tmp_path, allgather):
    answer = commsched.solve(allgather, "sat", certificate=tmp_path / "cert")
    assert answer.certified
    assert commsched.verify(tmp_path / "cert")
    report = commsched.report(allgather.path, exact=False)
    assert report.failed == 0 and len(report.instances) == 1


def test_version():
    assert commsched.__version__
