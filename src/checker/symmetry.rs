//! Symmetric packings (docs/spec.md §6.1, §7.3). A packing's generators, each a permutation of
//! the fabric's nodes, stand for the group G they generate, and its trees, all of one
//! representative root r₀, for every root's: root r has the images g(T) under the elements g of
//! G with g(r₀) = r, each of weight w_T / |G_r₀| (G_r₀ the stabiliser of r₀, trivial when G acts
//! regularly, as a torus's translations do). The generators must be automorphisms of the fabric,
//! so that every image obeys the rules its tree does, and act transitively on the compute nodes,
//! so that every root has trees; they need not commute. By orbit–stabiliser a link e then carries
//!
//! load(e) = N / |Ge| · Σ_T w_T · (the hops of T's paths on links of the orbit Ge),
//!
//! from the links' orbits under the generators, in O(generators × links).

use crate::spec::fabric::{Fabric, ratio_text};
use crate::spec::packing::{Packing, Tree};
use num_rational::BigRational;
use std::collections::HashSet;

/// How the loads of the written trees spread over the links: the links' orbits and the roots
/// each written tree stands for. Without a symmetry every link is its own orbit and every tree
/// stands for itself.
#[derive(Debug, Clone)]
pub struct Orbits {
    /// The orbit of each link, by its position in [`Fabric::links`].
    pub of_link: Vec<usize>,
    /// The links of each orbit.
    pub size: Vec<usize>,
    /// A link of each orbit; all of them have its bandwidth.
    pub first: Vec<usize>,
    /// The roots a written tree stands for: N with a symmetry, else 1.
    pub copies: usize,
}

impl Orbits {
    /// No symmetry: every link alone, every tree once.
    pub fn plain(fabric: &Fabric) -> Self {
        let links = fabric.links().len();
        Self { of_link: (0..links).collect(), size: vec![1; links], first: (0..links).collect(), copies: 1 }
    }

    /// The link orbits of generators already [`judge`]d to be automorphisms acting transitively
    /// on the compute nodes.
    pub fn of(fabric: &Fabric, generators: &[Vec<usize>]) -> Self {
        let links = fabric.links();
        let image = |k: usize, l: usize| {
            let g = &generators[k];
            fabric.link_index(g[links[l].from], g[links[l].to]).expect("an automorphism maps links to links")
        };
        let (of_link, size, first) = orbits(links.len(), generators.len(), image);
        Self { of_link, size, first, copies: fabric.compute().len() }
    }

    /// A packing's orbits: [`Orbits::of`] its symmetry, or [`Orbits::plain`].
    pub fn of_packing(fabric: &Fabric, packing: &Packing) -> Self {
        match &packing.symmetry {
            Some(generators) => Self::of(fabric, generators),
            None => Self::plain(fabric),
        }
    }
}

/// The orbits of the elements `0..count` under `maps` permutations, `image(k, x)` the image of x
/// under the k-th: each element's orbit, each orbit's size and its first element. The orbit of x
/// is what the maps reach from x, a permutation's inverse being one of its powers.
fn orbits(
    count: usize,
    maps: usize,
    image: impl Fn(usize, usize) -> usize,
) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let mut of = vec![usize::MAX; count];
    let (mut size, mut first) = (Vec::new(), Vec::new());
    for start in 0..count {
        if of[start] != usize::MAX {
            continue;
        }
        let id = size.len();
        of[start] = id;
        let mut stack = vec![start];
        let mut members = 0;
        while let Some(x) = stack.pop() {
            members += 1;
            for k in 0..maps {
                let y = image(k, x);
                if of[y] == usize::MAX {
                    of[y] = id;
                    stack.push(y);
                }
            }
        }
        size.push(members);
        first.push(start);
    }
    (of, size, first)
}

/// Judges a packing's generators for its representative root: each a permutation of the
/// fabric's nodes that maps compute nodes to compute nodes, switches to switches and every link
/// to a link of the same bandwidth, and together reaching every compute node from `root`. The
/// link orbits, or one line per generator that fails (its first failure), or the line saying the
/// action is not transitive.
pub fn judge(fabric: &Fabric, generators: &[Vec<usize>], root: usize) -> Result<Orbits, Vec<String>> {
    let name = |v: usize| fabric.node_name(v);
    let failures: Vec<String> = generators
        .iter()
        .enumerate()
        .filter_map(|(k, g)| automorphism_failure(fabric, g).map(|why| format!("symmetry[{k}]: {why}")))
        .collect();
    if !failures.is_empty() {
        return Err(failures);
    }
    let (of_node, _, _) = orbits(fabric.len(), generators.len(), |k, v| generators[k][v]);
    let compute = fabric.compute();
    let reached = compute.iter().filter(|&&v| of_node[v] == of_node[root]).count();
    if reached < compute.len() {
        return Err(vec![format!(
            "symmetry: the generators take the representative root `{}` to {reached} of the {} compute nodes: they do not act transitively on the compute nodes",
            name(root),
            compute.len()
        )]);
    }
    Ok(Orbits::of(fabric, generators))
}

/// Why `g` is not an automorphism of the fabric: its first failure, or `None`.
fn automorphism_failure(fabric: &Fabric, g: &[usize]) -> Option<String> {
    let name = |v: usize| fabric.node_name(v);
    let n = fabric.len();
    if g.len() != n {
        return Some(format!("lists {} nodes, the fabric has {n}: not a permutation of its nodes", g.len()));
    }
    let mut hit = vec![false; n];
    for &v in g {
        if v >= n {
            return Some(format!("node index {v} is outside the fabric's 0..{n}"));
        }
        if std::mem::replace(&mut hit[v], true) {
            return Some(format!("`{}` is the image of two nodes: not a permutation", name(v)));
        }
    }
    if let Some(v) = (0..n).find(|&v| fabric.kind(g[v]) != fabric.kind(v)) {
        return Some(format!(
            "maps {} `{}` to {} `{}`: not an automorphism",
            fabric.kind(v).name(),
            name(v),
            fabric.kind(g[v]).name(),
            name(g[v])
        ));
    }
    fabric.links().iter().find_map(|l| {
        let (u, v) = (g[l.from], g[l.to]);
        let shown =
            format!("maps the link `{}` → `{}` to `{}` → `{}`", name(l.from), name(l.to), name(u), name(v));
        match fabric.link(u, v) {
            None => Some(format!("{shown}, which is not a link: not an automorphism")),
            Some(image) if image.bandwidth != l.bandwidth => Some(format!(
                "{shown}, of {} GB/s where the link has {}: not an automorphism",
                ratio_text(&image.bandwidth),
                ratio_text(&l.bandwidth)
            )),
            Some(_) => None,
        }
    })
}

/// The plain packing a symmetric one stands for (docs/spec.md §7.3): every element g of the
/// group, enumerated, maps each written tree T to g(T), rooted at g(r₀), of weight
/// w_T · N / |G|. |G| · trees trees: for small fabrics and tests. A plain packing as it is.
pub fn expanded(packing: &Packing) -> Packing {
    let Some(generators) = packing.symmetry.as_ref().filter(|g| !g.is_empty()) else {
        return Packing { symmetry: None, ..packing.clone() };
    };
    let identity: Vec<usize> = (0..generators[0].len()).collect();
    let mut group = vec![identity.clone()];
    let mut seen = HashSet::from([identity]);
    let mut next = 0;
    while next < group.len() {
        for g in generators {
            let product: Vec<usize> = group[next].iter().map(|&v| g[v]).collect();
            if seen.insert(product.clone()) {
                group.push(product);
            }
        }
        next += 1;
    }
    let roots: HashSet<usize> =
        packing.trees.first().map_or_else(HashSet::new, |t| group.iter().map(|g| g[t.root]).collect());
    let share = BigRational::new(roots.len().into(), group.len().into());
    let trees = group
        .iter()
        .flat_map(|g| {
            packing.trees.iter().map(|t| Tree {
                phase: t.phase,
                root: g[t.root],
                weight: &t.weight * &share,
                paths: t.paths.iter().map(|p| p.iter().map(|&v| g[v]).collect()).collect(),
            })
        })
        .collect();
    Packing { collective: packing.collective, trees, symmetry: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::packing::check_packing;
    use crate::spec::fabric::{FabricBuilder, NodeKind};
    use crate::spec::packing::{BandwidthCollective, Phase};

    /// Two GPUs a, b, each linked both ways to two switches s, t. Swapping a and b and swapping
    /// s and t commute and fix a two ways (the identity and the switch swap), so b's images of
    /// a's tree a → s → b are b → s → a and b → t → a, half each, and so are a's own: every link
    /// carries 1/2. Without the switch swap b has b → s → a alone, and the links to and from t
    /// carry nothing.
    #[test]
    fn a_root_fixed_several_ways_splits_its_images() {
        let mut b = FabricBuilder::default();
        let [a, gb, s, t] = [
            ("a", NodeKind::Compute),
            ("b", NodeKind::Compute),
            ("s", NodeKind::Switch),
            ("t", NodeKind::Switch),
        ]
        .map(|(name, kind)| b.node(name, kind));
        for (u, v) in [(a, s), (a, t), (gb, s), (gb, t)] {
            b.duplex(u, v, &BigRational::from_integer(1.into()), 0.0).unwrap();
        }
        let f = b.build("square").unwrap();
        let tree = Tree {
            phase: Phase::Allgather,
            root: a,
            weight: BigRational::from_integer(1.into()),
            paths: vec![vec![a, s, gb]],
        };
        let swap_gpus = vec![gb, a, s, t];
        let swap_switches = vec![a, gb, t, s];
        let packing = |symmetry: Vec<Vec<usize>>| Packing {
            collective: BandwidthCollective::Allgather,
            trees: vec![tree.clone()],
            symmetry: Some(symmetry),
        };
        let both = packing(vec![swap_gpus.clone(), swap_switches.clone()]);
        let half = BigRational::new(1.into(), 2.into());
        assert_eq!(check_packing(&f, &both).unwrap().time, half);
        let plain = expanded(&both);
        assert_eq!(plain.trees.len(), 4);
        assert!(plain.trees.iter().all(|t| t.weight == half));
        assert_eq!(check_packing(&f, &plain).unwrap().time, half);
        let one = packing(vec![swap_gpus]);
        assert_eq!(check_packing(&f, &one).unwrap().time, BigRational::from_integer(1.into()));
        assert_eq!(check_packing(&f, &expanded(&one)).unwrap().time, BigRational::from_integer(1.into()));
        // The switch swap alone reaches no other GPU.
        let err = check_packing(&f, &packing(vec![swap_switches])).unwrap_err();
        assert!(err[0].contains("to 1 of the 2 compute nodes"), "{err:?}");
        // A GPU sent to a switch.
        let err = check_packing(&f, &packing(vec![vec![s, gb, a, t]])).unwrap_err();
        assert!(err[0].starts_with("symmetry[0]: maps compute `a` to switch `s`"), "{err:?}");
    }
}
