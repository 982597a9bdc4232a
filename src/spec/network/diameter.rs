//! The diameter of an explicit graph (docs/spec.md §2.4): a breadth-first search from every
//! node over one adjacency built once, level by level over bitsets when the graph is dense
//! (`fully-connected:N`: N²/64 words a search instead of N² arcs).

use super::Node;

/// The largest finite hop distance between two of the `n` nodes joined by `arcs`, and whether
/// every node reaches every other.
pub fn search(n: usize, arcs: &[(Node, Node)]) -> (usize, bool) {
    let words = n.div_ceil(64);
    // A bitset search costs n·words a source, a list search n + arcs.
    if n.saturating_mul(words) < n + arcs.len() { bitsets(n, words, arcs) } else { lists(n, arcs) }
}

/// Out-neighbours as one flat list with offsets.
fn adjacency(n: usize, arcs: &[(Node, Node)]) -> (Vec<usize>, Vec<Node>) {
    let mut start = vec![0; n + 1];
    for &(u, _) in arcs {
        start[u + 1] += 1;
    }
    for u in 0..n {
        start[u + 1] += start[u];
    }
    let mut next = start.clone();
    let mut to = vec![0; arcs.len()];
    for &(u, v) in arcs {
        to[next[u]] = v;
        next[u] += 1;
    }
    (start, to)
}

fn lists(n: usize, arcs: &[(Node, Node)]) -> (usize, bool) {
    let (start, to) = adjacency(n, arcs);
    let (mut diameter, mut strong) = (0, true);
    let mut dist = vec![usize::MAX; n];
    let mut queue = Vec::with_capacity(n);
    for s in 0..n {
        dist.fill(usize::MAX);
        dist[s] = 0;
        queue.clear();
        queue.push(s);
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            for &v in &to[start[u]..start[u + 1]] {
                if dist[v] == usize::MAX {
                    dist[v] = dist[u] + 1;
                    diameter = diameter.max(dist[v]);
                    queue.push(v);
                }
            }
        }
        strong &= queue.len() == n;
    }
    (diameter, strong)
}

fn bitsets(n: usize, words: usize, arcs: &[(Node, Node)]) -> (usize, bool) {
    let mut out = vec![0u64; n * words];
    for &(u, v) in arcs {
        out[u * words + v / 64] |= 1 << (v % 64);
    }
    let (mut diameter, mut strong) = (0, true);
    let (mut seen, mut next) = (vec![0u64; words], vec![0u64; words]);
    let mut frontier = Vec::with_capacity(n);
    for s in 0..n {
        seen.fill(0);
        seen[s / 64] |= 1 << (s % 64);
        frontier.clear();
        frontier.push(s);
        let (mut level, mut reached) = (0, 1);
        while !frontier.is_empty() {
            next.fill(0);
            for &u in &frontier {
                for (w, &bits) in next.iter_mut().zip(&out[u * words..(u + 1) * words]) {
                    *w |= bits;
                }
            }
            frontier.clear();
            for (i, (w, old)) in next.iter().zip(seen.iter_mut()).enumerate() {
                let mut fresh = w & !*old;
                *old |= fresh;
                while fresh != 0 {
                    frontier.push(i * 64 + fresh.trailing_zeros() as usize);
                    fresh &= fresh - 1;
                }
            }
            if !frontier.is_empty() {
                level += 1;
                reached += frontier.len();
            }
        }
        diameter = diameter.max(level);
        strong &= reached == n;
    }
    (diameter, strong)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_searches_agree_on_dense_and_sparse_graphs() {
        let complete: Vec<_> =
            (0..70).flat_map(|u| (0..70).filter(move |&v| v != u).map(move |v| (u, v))).collect();
        assert_eq!(bitsets(70, 2, &complete), (1, true));
        assert_eq!(lists(70, &complete), (1, true));
        let one_way: Vec<_> = (0..69).map(|u| (u, u + 1)).collect();
        assert_eq!(bitsets(70, 2, &one_way), (69, false));
        assert_eq!(lists(70, &one_way), (69, false));
        let star: Vec<_> = (1..70).flat_map(|v| [(0, v), (v, 0)]).collect();
        assert_eq!(search(70, &star), (2, true));
        assert_eq!(bitsets(70, 2, &star), (2, true));
    }
}
