//! The specification layer (SPEC §2–§5): plain data, depending on nothing else in the crate.

pub mod capacity;
pub mod io;
pub mod model;
pub mod network;
pub mod problem;
pub mod schedule;

pub use capacity::Capacity;
pub use model::{GatherMode, Mode, Model, Port, PortRule};
pub use network::{Family, Network, Node, RingTie};
pub use problem::{Instance, Message, MessageSpec, Packet, PaperNote, Problem};
pub use schedule::{Control, ControlKind, FatTreeSend, Schedule, Start, Transmission};
