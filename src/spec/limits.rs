//! Size guards (docs/spec.md §5.3): one limit per resource, checked before anything of that
//! size is allocated, so a hostile size is refused with one line instead of exhausting memory.
//! The CLI raises or lowers them with `--max-nodes`, `--max-arcs`, `--max-items`, `--max-events`
//! and `--max-compact-events`.

use std::sync::atomic::{AtomicU64, Ordering};

/// Default limit on the nodes of a network (`ring:N`, `mesh:RxC`, `esm:N` has N² nodes).
pub const DEFAULT_MAX_NODES: u64 = 100_000;
/// Default limit on the arcs of a network, counted from its family's formula before it is built
/// (`fully-connected:N` has N(N−1), `hub-and-spoke:N` also its 2N switch groups' members): 2^21,
/// enough for `fully-connected:1448`.
pub const DEFAULT_MAX_ARCS: u64 = 1 << 21;
/// Default limit on the items of an instance (total-exchange packets, gossip pieces): 2^20,
/// enough for total exchange on `path:1024`.
pub const DEFAULT_MAX_ITEMS: u64 = 1 << 20;
/// Default limit on the packet hops an algorithm may emit (items × the network's diameter, an
/// upper bound of what a total exchange needs): an explicit schedule costs about 64 bytes a hop.
pub const DEFAULT_MAX_EVENTS: u64 = 60_000_000;

/// Default limit on the packet hops of a schedule held as itineraries (4 bytes a hop,
/// docs/spec.md §5.4): 2^29, about 2 GiB, enough for total exchange on `path:1024`.
pub const DEFAULT_MAX_COMPACT_EVENTS: u64 = 1 << 29;

static MAX_NODES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_NODES);
static MAX_ARCS: AtomicU64 = AtomicU64::new(DEFAULT_MAX_ARCS);
static MAX_ITEMS: AtomicU64 = AtomicU64::new(DEFAULT_MAX_ITEMS);
static MAX_EVENTS: AtomicU64 = AtomicU64::new(DEFAULT_MAX_EVENTS);
static MAX_COMPACT_EVENTS: AtomicU64 = AtomicU64::new(DEFAULT_MAX_COMPACT_EVENTS);

/// The resources the guards count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resource {
    /// Nodes of a network.
    Nodes,
    /// Arcs of a network (and the members of its switch groups).
    Arcs,
    /// Items (packets, pieces) of an instance.
    Items,
    /// Packet hops of an explicit schedule.
    Events,
    /// Packet hops of a schedule held as itineraries.
    CompactEvents,
}

impl Resource {
    fn cell(self) -> &'static AtomicU64 {
        match self {
            Resource::Nodes => &MAX_NODES,
            Resource::Arcs => &MAX_ARCS,
            Resource::Items => &MAX_ITEMS,
            Resource::Events => &MAX_EVENTS,
            Resource::CompactEvents => &MAX_COMPACT_EVENTS,
        }
    }

    /// The flag that overrides the limit.
    pub fn flag(self) -> &'static str {
        match self {
            Resource::Nodes => "--max-nodes",
            Resource::Arcs => "--max-arcs",
            Resource::Items => "--max-items",
            Resource::Events => "--max-events",
            Resource::CompactEvents => "--max-compact-events",
        }
    }

    /// The current limit.
    pub fn limit(self) -> u64 {
        self.cell().load(Ordering::Relaxed)
    }

    /// Sets the limit (process-wide; the CLI sets it once from its flags).
    pub fn set_limit(self, value: u64) {
        self.cell().store(value, Ordering::Relaxed);
    }

    /// Refuses `count` (None: beyond u64) of this resource above the limit; the reason names
    /// the count, the limit and the flag that raises it.
    pub fn guard(self, count: Option<u64>, what: &str) -> Result<(), String> {
        let limit = self.limit();
        match count {
            Some(c) if c <= limit => Ok(()),
            _ => Err(format!(
                "{what} has {} {}, more than the limit {limit} (raise it with {})",
                count.map_or_else(|| "over 2^64".to_string(), |c| c.to_string()),
                match self {
                    Resource::Nodes => "nodes",
                    Resource::Arcs => "arcs",
                    Resource::Items => "items",
                    Resource::Events | Resource::CompactEvents => "packet hops at most",
                },
                self.flag()
            )),
        }
    }
}
