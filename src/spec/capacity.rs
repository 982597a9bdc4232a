//! Fat-tree channel capacity functions `w(n)` (SPEC §4.3, paper 002 §2).

use serde::{Deserialize, Serialize};

/// A capacity function evaluated on subtree leaf counts n = 1, 2, 4, ..., N.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Capacity {
    /// w(n) = c.
    Constant {
        /// The constant.
        value: u64,
    },
    /// w(n) = log2(n) + 1 (paper 002 Fig. 1).
    LogPlusOne,
    /// w(n) = ⌊n^beta⌋ (at least 1).
    Power {
        /// Exponent in [0, 1].
        beta: f64,
    },
    /// w(n) = ⌊2^(log2(n)^beta)⌋.
    ExpLogPower {
        /// Exponent in [0, 1].
        beta: f64,
    },
    /// Paper 002 Table 1's n^(1/log log n) (FT-21d), made a valid capacity: w(n) =
    /// min(n, ⌊M^(1 / log2 log2 M)⌋) with M = max(n, 8), i.e. 1, 2, 3, 3, 4, 4, 4, 5, 6, 7, 8 for
    /// n = 1, 2, 4, …, 1024 and 24 at n = 2^20.
    ///
    /// The paper's function is undefined at n = 2 (log log 2 = 0), equals 4 at n = 4 and falls
    /// until n = 2^e ≈ 6.6 before it grows; evaluated literally (with 1 below n = 8) it gives
    /// w(4) = 1, w(8) = 3 and breaks w(2n) ≤ 2w(n). Freezing the argument at its value for n = 8
    /// (where the function has already passed its minimum, 3.71) and capping by n keeps the
    /// growth the paper means and satisfies the doubling rule for every power of two up to 2^63.
    RootLogLog,
    /// Explicit values w(1), w(2), w(4), ...
    Table {
        /// One value per power of two, starting at n = 1.
        values: Vec<u64>,
    },
}

impl Capacity {
    /// Parses `const:C`, `log+1`, `pow:BETA`, `explog:BETA`, `rootloglog`, `table:1,2,2,4`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let (kind, arg) = s.split_once(':').unwrap_or((s, ""));
        let float = |a: &str| -> Result<f64, String> {
            let b: f64 = a.parse().map_err(|_| format!("`{a}` is not a number in `{s}`"))?;
            if !(0.0..=1.0).contains(&b) {
                return Err(format!("exponent {b} is outside [0, 1]"));
            }
            Ok(b)
        };
        Ok(match kind {
            "const" => Capacity::Constant {
                value: arg.parse().map_err(|_| format!("`{arg}` is not a positive integer in `{s}`"))?,
            },
            "log+1" => Capacity::LogPlusOne,
            "pow" => Capacity::Power { beta: float(arg)? },
            "explog" => Capacity::ExpLogPower { beta: float(arg)? },
            "rootloglog" => Capacity::RootLogLog,
            "table" => Capacity::Table {
                values: arg
                    .split(',')
                    .map(|t| {
                        t.trim().parse().map_err(|_| format!("`{t}` is not a non-negative integer in `{s}`"))
                    })
                    .collect::<Result<_, _>>()?,
            },
            _ => {
                return Err(format!(
                    "unknown capacity `{s}` (known: const:C, log+1, pow:BETA, explog:BETA, rootloglog, table:W1,W2,...)"
                ));
            }
        })
    }

    /// w(n) for a power of two n ≥ 1.
    pub fn w(&self, n: u64) -> u64 {
        let lg = n.max(1).ilog2() as f64;
        let v = match self {
            Capacity::Constant { value } => *value as f64,
            Capacity::LogPlusOne => lg + 1.0,
            Capacity::Power { beta } => (n as f64).powf(*beta),
            Capacity::ExpLogPower { beta } => 2f64.powf(lg.powf(*beta)),
            Capacity::RootLogLog => {
                // M^(1/log2 log2 M) = 2^(log2 M / log2 log2 M), with M = max(n, 8).
                let m = lg.max(3.0);
                2f64.powf(m / m.log2()).min(n.max(1) as f64)
            }
            Capacity::Table { values } => {
                return values.get(n.max(1).ilog2() as usize).copied().unwrap_or(0);
            }
        };
        // A small epsilon keeps exact powers (4^0.5 = 2) from rounding down.
        (v + 1e-9).floor() as u64
    }

    /// w(2^k) for k = 0..log N − 1: the capacity of the channels above each height of
    /// fat-tree:N (N a power of two).
    pub fn per_height(&self, processors: usize) -> Vec<u64> {
        (0..processors.trailing_zeros()).map(|k| self.w(1 << k)).collect()
    }

    /// Checks the validity rule w(n) ≥ 1 and w(n) ≤ w(2n) ≤ 2 w(n) for n = 1..N/2, and that a
    /// table covers n = 1..N. Returns the first violation as a reason.
    pub fn validate(&self, processors: u64) -> Result<(), String> {
        if let Capacity::Table { values } = self {
            let need = processors.ilog2() as usize + 1;
            if values.len() < need {
                return Err(format!(
                    "the table gives {} values but a fat-tree of {processors} processors needs w(1)..w({processors}), {need} values",
                    values.len()
                ));
            }
        }
        let mut n = 1;
        while n <= processors {
            if self.w(n) == 0 {
                return Err(format!("w({n}) = 0: every channel needs capacity at least 1"));
            }
            if n < processors {
                let (a, b) = (self.w(n), self.w(2 * n));
                if b < a || b > 2 * a {
                    return Err(format!("w({n}) = {a} and w({}) = {b} break w(n) <= w(2n) <= 2w(n)", 2 * n));
                }
            }
            n *= 2;
        }
        Ok(())
    }

    /// The string form accepted by [`Capacity::parse`].
    pub fn spec_string(&self) -> String {
        match self {
            Capacity::Constant { value } => format!("const:{value}"),
            Capacity::LogPlusOne => "log+1".into(),
            Capacity::Power { beta } => format!("pow:{beta}"),
            Capacity::ExpLogPower { beta } => format!("explog:{beta}"),
            Capacity::RootLogLog => "rootloglog".into(),
            Capacity::Table { values } => {
                let v: Vec<String> = values.iter().map(|x| x.to_string()).collect();
                format!("table:{}", v.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_validity() {
        assert_eq!(Capacity::LogPlusOne.w(8), 4);
        assert_eq!(Capacity::Power { beta: 0.5 }.w(16), 4);
        assert!(Capacity::LogPlusOne.validate(16).is_ok());
        assert!(Capacity::Table { values: vec![1, 3] }.validate(2).is_err());
        assert!(Capacity::Table { values: vec![2, 1] }.validate(2).is_err());
        assert!(Capacity::Constant { value: 0 }.validate(4).is_err());
    }

    /// The rootloglog values quoted in its doc comment and docs/spec.md §4.3, and the doubling
    /// rule w(n) ≤ w(2n) ≤ 2w(n) for every power of two up to 2^20 (`validate` walks them all).
    #[test]
    fn rootloglog_values_and_doubling_rule() {
        let w: Vec<u64> = (0..=10).map(|k| Capacity::RootLogLog.w(1 << k)).collect();
        assert_eq!(w, [1, 2, 3, 3, 4, 4, 4, 5, 6, 7, 8]);
        assert_eq!(Capacity::RootLogLog.w(1 << 16), 16);
        assert_eq!(Capacity::RootLogLog.w(1 << 20), 24);
        assert_eq!(Capacity::RootLogLog.validate(1 << 20), Ok(()));
    }
}
