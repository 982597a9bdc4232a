//! The specification layer (SPEC §2–§5): plain data, depending on nothing else in the crate.

pub mod applicability;
pub mod capacity;
pub mod collective;
pub mod compat;
pub mod events;
pub mod fabric;
pub mod instance_file;
pub mod io;
pub mod itinerary;
pub mod limits;
pub mod model;
pub mod network;
pub mod packing;
pub mod problem;
pub mod reversal;
pub mod schedule;
pub mod topology;

pub use applicability::{Applicability, Refinement};
pub use capacity::Capacity;
pub use collective::{Chunk, Collective, CollectiveKind};
pub use compat::ModelKind;
pub use instance_file::InstanceFile;
pub use itinerary::{Direction, Itineraries, Itinerary};
pub use model::{GatherMode, Mode, Model, ModelClass, Port, PortRule};
pub use network::{Family, FamilyKind, Network, Node, RingTie, Switch};
pub use problem::{Instance, Message, MessageSpec, Packet, PaperNote, Problem, ProblemKind};
pub use schedule::{Control, ControlKind, FatTreeSend, Schedule, Start, Transmission};
