//! What an algorithm or an encoder is stated for, as data: problems, model classes and network
//! families, plus an optional refinement for conditions the types cannot say (an odd ring, a
//! square mesh). The registries above this layer (the algorithms' `heuristics::Method`, the
//! encoders' `exact::encode::EncoderEntry`) declare one each; `list` prints it and every
//! refusal reads the same way.

use super::{FamilyKind, Instance, Model, ModelClass, ProblemKind};

/// A further condition on an instance: `Err(reason)` when it fails.
pub type Refinement = fn(&Instance) -> Result<(), String>;

/// The instances a registry entry applies to.
#[derive(Debug, Clone, Copy)]
pub struct Applicability {
    /// The problems it solves.
    pub problems: &'static [ProblemKind],
    /// The model classes it produces schedules for.
    pub models: &'static [ModelClass],
    /// The network families it runs on; empty: any.
    pub families: &'static [FamilyKind],
    /// A further condition, `Err(reason)` when the instance fails it.
    pub refine: Option<Refinement>,
    /// Why these models (appended to a model refusal; empty: nothing to add).
    pub model_note: &'static str,
}

impl Applicability {
    /// `Ok(())` when the entry applies to `instance`, else the reason, naming what the entry
    /// needs and what the instance has.
    pub fn check(&self, instance: &Instance) -> Result<(), String> {
        let problem = instance.problem.kind();
        if !self.problems.contains(&problem) {
            return Err(format!("it solves {}, not {problem}", list(self.problems)));
        }
        let class = instance.model.class();
        if !self.models.contains(&class) {
            let note =
                if self.model_note.is_empty() { String::new() } else { format!("; {}", self.model_note) };
            return Err(format!(
                "it needs the model {}, and the instance's is {class}{note}",
                list(self.models)
            ));
        }
        let family = instance.network.family().kind();
        if !self.families.is_empty() && !self.families.contains(&family) {
            return Err(format!(
                "it runs on {} networks, not on {}",
                list(self.families),
                instance.network.spec_string()
            ));
        }
        self.refine.map_or(Ok(()), |refine| refine(instance))
    }

    /// One line for listings: problems, models and families.
    pub fn describe(&self) -> String {
        let families = if self.families.is_empty() { "any network".to_string() } else { list(self.families) };
        format!("{}; {}; {families}", list(self.problems), list(self.models))
    }
}

/// The refinement of every paper-002 entry (algorithms and encoders): the tree has a power of
/// two ≥ 2 processors and the capacity function is valid on it (docs/spec.md §4.3).
pub fn fat_tree_with_valid_capacity(inst: &Instance) -> Result<(), String> {
    let n = inst.network.len();
    if n < 2 || !n.is_power_of_two() {
        return Err(format!("{} is not a fat-tree of a power of two >= 2 processors", inst.network));
    }
    match &inst.model {
        Model::FatTree { capacity, .. } => capacity.validate(n as u64),
        m => Err(format!("it needs the ideal fat-tree model, not {}", m.name())),
    }
}

/// `a`, `a or b`, `a, b or c`.
fn list<T: std::fmt::Display>(items: &[T]) -> String {
    let names: Vec<String> = items.iter().map(T::to_string).collect();
    match names.split_last() {
        None => "nothing".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::io::parse_instance;
    use crate::spec::{Mode, PortRule};

    const TE_ON_PATHS: Applicability = Applicability {
        problems: &[ProblemKind::TotalExchange],
        models: &[ModelClass::StoreForward { rule: PortRule::FStar, mode: Mode::Move }],
        families: &[FamilyKind::PATH],
        refine: None,
        model_note: "",
    };

    #[test]
    fn refusals_name_what_is_needed_and_what_is_there() {
        let te = |net: &str, rule: &str| {
            parse_instance(
                &format!("problem = \"total-exchange\"\nnetwork = \"{net}\"\n[model]\nkind = \"store-forward\"\nmode = \"move\"\nrule = \"{rule}\""),
                "<test>",
                "t",
            )
            .unwrap()
        };
        assert_eq!(TE_ON_PATHS.check(&te("path:4", "F*")), Ok(()));
        assert_eq!(
            TE_ON_PATHS.check(&te("ring:4", "F*")).unwrap_err(),
            "it runs on path networks, not on ring:4"
        );
        assert_eq!(
            TE_ON_PATHS.check(&te("path:4", "H1")).unwrap_err(),
            "it needs the model store-and-forward F* move, and the instance's is store-and-forward H1 move"
        );
        let gossip = parse_instance("problem = \"gossip\"\nnetwork = \"path:4\"", "<test>", "g").unwrap();
        assert_eq!(TE_ON_PATHS.check(&gossip).unwrap_err(), "it solves total-exchange, not gossip");
        assert_eq!(TE_ON_PATHS.describe(), "total-exchange; store-and-forward F* move; path");
    }
}
