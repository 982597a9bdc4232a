"""Writes the pigeonhole formula PHP(p, p-1) as DIMACS CNF to stdout: p pigeons in p - 1 holes,
every pigeon in some hole and no two in one. With a second argument k, k disjoint copies, the
variables of copy c shifted by c times those of one copy and its clauses after copy c - 1's.
Usage: python3 php.py P [K] > php.cnf (the 1 GB proof of docs/benchmarks.md: P = 11, K = 2)."""
import sys

p = int(sys.argv[1])
copies = int(sys.argv[2]) if len(sys.argv) > 2 else 1
h = p - 1
var = lambda i, j: i * h + j + 1
one = [[var(i, j) for j in range(h)] for i in range(p)]
for j in range(h):
    for a in range(p):
        for b in range(a + 1, p):
            one.append([-var(a, j), -var(b, j)])
shift = p * h
print(f"p cnf {shift * copies} {len(one) * copies}")
for c in range(copies):
    for clause in one:
        print(" ".join(str(x + shift * c if x > 0 else x - shift * c) for x in clause) + " 0")
