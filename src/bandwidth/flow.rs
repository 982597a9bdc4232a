//! Maximum flow by Dinic's algorithm (blocking flows on BFS levels; E. A. Dinic, "Algorithm for
//! solution of a problem of maximum flow in networks with power estimation", 1970), on integer
//! capacities, with a limit: the search stops once the flow reaches it, which is all an
//! admission test needs. Every test of the bandwidth optimiser is one call.

/// Capacity standing for "unbounded": larger than any sum of real capacities the optimiser
/// builds (they are checked to stay below 2^60).
pub const INFINITE: u64 = 1 << 62;

/// A flow network: arcs in pairs (arc, reverse), residual capacities.
#[derive(Debug, Clone, Default)]
pub struct FlowNetwork {
    head: Vec<usize>,
    cap: Vec<u64>,
    adj: Vec<Vec<usize>>,
    level: Vec<u32>,
    next: Vec<usize>,
}

impl FlowNetwork {
    /// A network of `n` nodes and no arcs.
    pub fn new(n: usize) -> Self {
        Self { adj: vec![Vec::new(); n], ..Self::default() }
    }

    /// Adds a node; returns it.
    pub fn add_node(&mut self) -> usize {
        self.adj.push(Vec::new());
        self.adj.len() - 1
    }

    /// Adds an arc `u → v` of capacity `c`; returns its index.
    pub fn add_arc(&mut self, u: usize, v: usize, c: u64) -> usize {
        let a = self.head.len();
        self.head.extend([v, u]);
        self.cap.extend([c, 0]);
        self.adj[u].push(a);
        self.adj[v].push(a + 1);
        a
    }

    /// The flow from `s` to `t`, stopping once it reaches `limit`.
    pub fn max_flow(&mut self, s: usize, t: usize, limit: u64) -> u64 {
        let mut flow = 0;
        while flow < limit && self.levels(s, t) {
            self.next = vec![0; self.adj.len()];
            loop {
                let pushed = self.push(s, t, limit - flow);
                if pushed == 0 {
                    break;
                }
                flow += pushed;
                if flow >= limit {
                    break;
                }
            }
        }
        flow
    }

    /// After [`max_flow`](Self::max_flow) stopped below its limit: the nodes on the source side
    /// of a minimum cut (reachable from `s` in the residual network).
    pub fn source_side(&self, s: usize) -> Vec<bool> {
        let mut seen = vec![false; self.adj.len()];
        seen[s] = true;
        let mut stack = vec![s];
        while let Some(u) = stack.pop() {
            for &a in &self.adj[u] {
                let v = self.head[a];
                if self.cap[a] > 0 && !seen[v] {
                    seen[v] = true;
                    stack.push(v);
                }
            }
        }
        seen
    }

    fn levels(&mut self, s: usize, t: usize) -> bool {
        self.level = vec![u32::MAX; self.adj.len()];
        self.level[s] = 0;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(u) = queue.pop_front() {
            for &a in &self.adj[u] {
                let v = self.head[a];
                if self.cap[a] > 0 && self.level[v] == u32::MAX {
                    self.level[v] = self.level[u] + 1;
                    if v == t {
                        return true;
                    }
                    queue.push_back(v);
                }
            }
        }
        self.level[t] != u32::MAX
    }

    /// One augmenting path of the level graph, iteratively: its bottleneck, at most `limit`.
    fn push(&mut self, s: usize, t: usize, limit: u64) -> u64 {
        let mut path: Vec<usize> = Vec::new();
        let mut u = s;
        loop {
            if u == t {
                let bottleneck = path.iter().map(|&a| self.cap[a]).min().unwrap_or(0).min(limit);
                for &a in &path {
                    self.cap[a] -= bottleneck;
                    self.cap[a ^ 1] += bottleneck;
                }
                return bottleneck;
            }
            let mut advanced = false;
            while self.next[u] < self.adj[u].len() {
                let a = self.adj[u][self.next[u]];
                let v = self.head[a];
                if self.cap[a] > 0
                    && self.level[v] == self.level[u] + 1
                    && (v == t || self.level[v] < self.level[t])
                {
                    path.push(a);
                    u = v;
                    advanced = true;
                    break;
                }
                self.next[u] += 1;
            }
            if !advanced {
                // A dead end: no blocking-flow path goes through u any more.
                self.level[u] = u32::MAX;
                match path.pop() {
                    Some(a) => {
                        u = self.head[a ^ 1];
                        self.next[u] += 1;
                    }
                    None => return 0,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_network_carries_its_cut() {
        // CLRS Fig. 26.1: maximum flow 23.
        let mut f = FlowNetwork::new(6);
        for (u, v, c) in [
            (0, 1, 16),
            (0, 2, 13),
            (2, 1, 4),
            (1, 3, 12),
            (3, 2, 9),
            (2, 4, 14),
            (4, 3, 7),
            (3, 5, 20),
            (4, 5, 4),
        ] {
            f.add_arc(u, v, c);
        }
        let mut limited = f.clone();
        assert_eq!(f.max_flow(0, 5, u64::MAX), 23);
        let side = f.source_side(0);
        assert_eq!(side, vec![true, true, true, false, true, false]);
        assert_eq!(limited.max_flow(0, 5, 10), 10);
    }
}
