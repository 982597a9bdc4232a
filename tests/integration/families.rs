//! Network families as a registry (SPEC §2): a family defined here, outside the crate, is
//! registered through `network::family::register` alone, and every layer (instance files, an
//! algorithm, the checker, the generic bounds) then works on its networks.

use commsched::bounds::{best, lower_bounds};
use commsched::checker::check;
use commsched::heuristics::find;
use commsched::spec::io::parse_instance;
use commsched::spec::network::family::{
    self, Family, NetworkFamily, Registered, guard_nodes, not_mine, number,
};
use commsched::spec::{FamilyKind, Network, Node};

/// The wheel `wheel:N`: a hub 0 joined both ways to a ring 1..=N (both directions).
struct Wheel;

static WHEEL: Wheel = Wheel;

impl Wheel {
    fn rim(&self, family: &Family) -> Option<usize> {
        match family {
            Family::Other(Registered { family, params }) if family.name() == self.name() => {
                params.first().copied()
            }
            _ => None,
        }
    }
}

impl NetworkFamily for Wheel {
    fn name(&self) -> &'static str {
        "wheel"
    }

    fn parse(&'static self, params: &str, text: &str) -> Result<Family, String> {
        Ok(Family::Other(Registered { family: self, params: vec![number(params, text)?] }))
    }

    fn params(&self, family: &Family) -> String {
        self.rim(family).map_or_else(|| not_mine(self, family), |n| n.to_string())
    }

    fn build(&self, family: &Family) -> Result<(usize, Vec<(Node, Node)>), String> {
        let rim = self.rim(family).ok_or_else(|| not_mine(self, family))?;
        guard_nodes(Some(rim as u64 + 1))?;
        if rim < 3 {
            return Err(format!("a wheel needs a rim of at least 3 nodes, got {rim}"));
        }
        let mut arcs = Vec::new();
        for x in 1..=rim {
            let next = x % rim + 1;
            arcs.extend([(0, x), (x, 0), (x, next), (next, x)]);
        }
        Ok((rim + 1, arcs))
    }

    fn diameter_bound(&self, _: &Network) -> usize {
        2
    }
}

const GOSSIP_ON_A_WHEEL: &str = r#"
name = "gossip-wheel6"
problem = "gossip"
network = "wheel:6"

[model]
kind = "store-forward"
rule = "H*"
mode = "copy"
packet = 1
"#;

#[test]
fn a_family_registered_at_run_time_runs_through_every_layer() {
    family::register(&WHEEL).unwrap();
    assert!(family::register(&WHEEL).unwrap_err().contains("already named `wheel`"));

    let net = Network::parse("wheel:6").unwrap();
    assert_eq!((net.len(), net.arcs().len(), net.spec_string()), (7, 24, "wheel:6".to_string()));
    assert_eq!(net.family().kind().name(), "wheel");
    assert_ne!(net.family().kind(), FamilyKind::RING);
    assert_eq!(net.diameter(), (2, true));
    assert_eq!(net.default_path(1, 4, Default::default()).map(|p| p.len()), Some(3));
    assert!(Network::parse("wheel:2").unwrap_err().contains("at least 3"));
    assert!(Network::parse("spoke:2").unwrap_err().contains("wheel"));

    let inst = parse_instance(GOSSIP_ON_A_WHEEL, "<wheel>", "wheel").unwrap();
    inst.guard_events().unwrap();
    let method = find("urgent-first").unwrap();
    let schedule = method.produce(&inst).unwrap();
    let measure = check(&inst, &schedule).admissible().cloned().expect("urgent-first is admissible");
    assert!(!lower_bounds(&inst).is_empty());
    let bound = best(&inst).unwrap();
    assert!(bound.value >= 2 && bound.value <= measure.length(), "{bound:?} vs {}", measure.length());
}
