"""networkx graphs in and out: a DiGraph with `kind` and `bandwidth` becomes a Network and
solves under the bandwidth model as the command line solves its node-link file."""

import json

import networkx as nx
import pytest

import commsched


def two_boxes():
    """Two boxes of two GPUs behind a switch each, the switches joined by a slower link."""
    g = nx.DiGraph()
    for gpu in ["a0", "a1", "b0", "b1"]:
        g.add_node(gpu, kind="compute")
    for switch in ["sa", "sb"]:
        g.add_node(switch, kind="switch")
    for gpu, switch in [("a0", "sa"), ("a1", "sa"), ("b0", "sb"), ("b1", "sb")]:
        g.add_edge(gpu, switch, bandwidth=100)
        g.add_edge(switch, gpu, bandwidth=100)
    g.add_edge("sa", "sb", bandwidth=25, latency=2.0)
    g.add_edge("sb", "sa", bandwidth=25, latency=2.0)
    return g


def test_a_networkx_graph_solves_as_its_node_link_file(tmp_path, cli_json):
    net = commsched.Network.from_networkx(two_boxes(), name="boxes")
    answer = commsched.solve("allgather", model="bandwidth", network=net)
    assert answer.status == "optimal" and answer.compute_nodes == 4
    assert answer.certificate == "cut"
    # The same graph written by networkx itself, solved by the command line.
    path = tmp_path / "boxes.json"
    path.write_text(json.dumps(nx.node_link_data(two_boxes(), edges="edges")))
    code, expected, err = cli_json("solve", "allgather", "--model", "bandwidth", "--network", path)
    assert code == 0, err
    assert answer.time_per_shard == expected["time_per_shard"]
    assert answer.algbw == expected["algbw"]


def test_an_undirected_graph_has_every_edge_both_ways():
    g = nx.cycle_graph(4)
    nx.set_edge_attributes(g, 10, "bandwidth")
    ring = commsched.Network.from_networkx(g)
    directed = commsched.Network.from_networkx(g.to_directed())
    a = commsched.bandwidth_solve("allgather", ring)
    b = commsched.bandwidth_solve("allgather", directed)
    assert a.time_per_shard == b.time_per_shard


def test_a_network_comes_back_as_a_digraph():
    g = commsched.Network("dgx1").to_networkx()
    assert isinstance(g, nx.DiGraph)
    assert g.number_of_nodes() == 8 and g.number_of_edges() == 32
    assert {d["bandwidth"] for _, _, d in g.edges(data=True)} == {1.0, 2.0}
    again = commsched.Network.from_networkx(g)
    assert (
        commsched.bandwidth_solve("allgather", again).time_per_shard
        == commsched.bandwidth_solve("allgather", "dgx1").time_per_shard
    )


def test_a_graph_without_bandwidths_is_refused_with_the_field():
    g = nx.DiGraph()
    g.add_edge(0, 1)
    g.add_edge(1, 0)
    with pytest.raises(commsched.InputError, match="bandwidth"):
        commsched.bandwidth_solve("allgather", commsched.Network.from_networkx(g))


def test_not_a_graph_is_a_type_error():
    with pytest.raises(TypeError):
        commsched.Network.from_networkx([(0, 1)])
