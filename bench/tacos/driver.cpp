// Runs TACOS's synthesizer (astra-sim/tacos, MIT) on one of its grids, as its own tests do, and
// writes the grid it built as a node-link JSON fabric for commsched, so both tools see the same
// links. Compiled by bench/tacos/run.sh against a checkout of TACOS; not part of the crate.
//
//   driver KIND SIZE BANDWIDTHS LATENCY CHUNKS_PER_NPU BUFFER_BYTES REPEATS NETWORK_JSON
//
// KIND is mesh2d, mesh2d-hetero, torus2d, torus3d or hypercube3d (TACOS's class names); SIZE is
// AxB or AxBxC; BANDWIDTHS is GiB/s (TACOS's unit), two for mesh2d-hetero ("x,y"); LATENCY is µs
// per link. As in TACOS's tests, the chunk size is BUFFER_BYTES / (NPUs * CHUNKS_PER_NPU),
// rounded down, and the answer is the least of REPEATS solves (its link-chunk matching breaks
// ties at random). Prints one JSON line: the NPU count, the chunk size, M = chunk size *
// CHUNKS_PER_NPU * NPUs (the allgather output per NPU), the least, median and largest collective
// time (µs) and the seconds of each solve.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <tacos/collective/all_gather.h>
#include <tacos/synthesizer/synthesizer.h>
#include <tacos/topology/hypercube_3d.h>
#include <tacos/topology/mesh_2d.h>
#include <tacos/topology/mesh_2d_hetero.h>
#include <tacos/topology/torus_2d.h>
#include <tacos/topology/torus_3d.h>
#include <vector>

using namespace tacos;

static std::vector<double> numbers(const std::string& text, char sep) {
    std::vector<double> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, sep)) {
        out.push_back(std::stod(item));
    }
    return out;
}

// A bandwidth in GiB/s as an exact fraction of GB/s (TACOS converts with 2^30 bytes per GiB,
// commsched reads 10^9 bytes per GB).
static std::string gbs(double gib) {
    const auto bytes = std::llround(gib * 1073741824.0);
    if (std::fabs(double(bytes) - gib * 1073741824.0) > 1e-6) {
        std::fprintf(stderr, "bandwidth %g GiB/s is not a whole number of bytes/s\n", gib);
        std::exit(2);
    }
    return "\"" + std::to_string(bytes) + "/1000000000\"";
}

int main(int argc, char** argv) {
    if (argc != 9) {
        std::fprintf(stderr,
                     "usage: driver KIND SIZE BANDWIDTHS LATENCY CHUNKS_PER_NPU BUFFER_BYTES "
                     "REPEATS NETWORK_JSON\n");
        return 2;
    }
    const std::string kind = argv[1];
    const auto size = numbers(argv[2], 'x');
    const auto bw = numbers(argv[3], ',');
    const double latency = std::stod(argv[4]);
    const int perNpu = std::stoi(argv[5]);
    const int64_t buffer = std::stoll(argv[6]);
    const int repeats = std::stoi(argv[7]);
    if (repeats < 1) {
        std::fprintf(stderr, "REPEATS must be at least 1\n");
        return 2;
    }

    std::unique_ptr<Topology> topology;
    if (kind == "mesh2d" && size.size() == 2) {
        topology = std::make_unique<Mesh2D>(int(size[0]), int(size[1]), bw[0], latency);
    } else if (kind == "mesh2d-hetero" && size.size() == 2 && bw.size() == 2) {
        topology = std::make_unique<Mesh2D_Hetero>(int(size[0]), int(size[1]), bw[0], latency,
                                                   bw[1], latency);
    } else if (kind == "torus2d" && size.size() == 2) {
        topology = std::make_unique<Torus2D>(int(size[0]), int(size[1]), bw[0], latency);
    } else if (kind == "torus3d" && size.size() == 3) {
        topology = std::make_unique<Torus3D>(int(size[0]), int(size[1]), int(size[2]), bw[0],
                                             latency);
    } else if (kind == "hypercube3d" && size.size() == 3) {
        topology = std::make_unique<Hypercube3D>(int(size[0]), int(size[1]), int(size[2]), bw[0],
                                                 latency);
    } else {
        std::fprintf(stderr, "unknown grid %s %s %s\n", argv[1], argv[2], argv[3]);
        return 2;
    }
    const int n = topology->npusCount();

    // The grid as TACOS built it: every directed link once.
    std::ofstream net(argv[8]);
    net << "{\"directed\": true, \"nodes\": [";
    for (int v = 0; v < n; ++v) {
        net << (v ? ", " : "") << "{\"id\": \"" << v << "\", \"kind\": \"compute\"}";
    }
    net << "], \"edges\": [";
    bool first = true;
    for (int s = 0; s < n; ++s) {
        for (int d = 0; d < n; ++d) {
            if (s == d || !topology->connected(s, d)) {
                continue;
            }
            net << (first ? "" : ", ") << "{\"source\": \"" << s << "\", \"target\": \"" << d
                << "\", \"bandwidth\": " << gbs(topology->bandwidth(s, d))
                << ", \"latency\": " << topology->latency(s, d) << "}";
            first = false;
        }
    }
    net << "]}\n";
    net.close();

    const auto collective = AllGather(n, perNpu);
    const Collective::ChunkSize chunkSize = buffer / (int64_t(n) * perNpu);
    std::vector<double> times, seconds;
    for (int i = 0; i < repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto synthesizer = Synthesizer();
        const auto t = synthesizer.solve(*topology, collective, chunkSize);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        times.push_back(t);
        seconds.push_back(took.count());
    }
    std::sort(times.begin(), times.end());
    std::printf("{\"npus\": %d, \"chunk_bytes\": %lld, \"bytes\": %lld, \"best_us\": %.4f, "
                "\"median_us\": %.4f, \"worst_us\": %.4f, \"seconds\": [",
                n, (long long)chunkSize, (long long)(chunkSize * perNpu * int64_t(n)), times.front(),
                times[times.size() / 2], times.back());
    for (size_t i = 0; i < seconds.size(); ++i) {
        std::printf("%s%.6f", i ? ", " : "", seconds[i]);
    }
    std::printf("]}\n");
    return 0;
}
