/* Writes to stdout an LRAT proof of two disjoint copies of a CNF (m clauses, n variables; the
   second copy's variables shifted by n, its clauses numbered m+1..2m, as `php.py P 2` writes
   them) from one text LRAT proof P of the CNF: P without its final empty clause for copy A,
   then P for copy B, ids renumbered. MAXID is P's largest clause id.
   Usage: double_proof P.lrat M N MAXID > P2.lrat   (docs/benchmarks.md, "LRAT checking") */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static long m, n, maxid;
static long idA(long id) { return id <= m ? id : id + m; }
static long idB(long id) { return id <= m ? id + m : id + maxid; }
int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: double_proof P.lrat M N MAXID\n"); return 2; }
  m = atol(argv[2]); n = atol(argv[3]); maxid = atol(argv[4]);
  static char line[1 << 20];
  for (int pass = 0; pass < 2; pass++) {
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    long (*map)(long) = pass ? idB : idA;
    while (fgets(line, sizeof line, f)) {
      char *p = line, *q; long id = strtol(p, &q, 10); p = q;
      while (*p == ' ') p++;
      if (*p == 'd') {
        printf("%ld d", map(id)); p++;
        for (;;) { long x = strtol(p, &q, 10); if (q == p) break; p = q; printf(" %ld", x ? map(x) : 0); }
        printf("\n"); continue; }
      /* literals */
      char *save = p; long first = strtol(p, &q, 10);
      if (pass == 0 && first == 0) continue; /* copy A's empty clause */
      p = save;
      printf("%ld", map(id));
      int zeros = 0;
      for (;;) { long x = strtol(p, &q, 10); if (q == p) break; p = q;
        if (zeros == 0) printf(" %ld", x == 0 ? 0 : (pass ? (x > 0 ? x + n : x - n) : x));
        else printf(" %ld", x ? map(x) : 0);
        if (x == 0) zeros++; }
      printf("\n");
    }
    fclose(f);
  }
  return 0;
}
