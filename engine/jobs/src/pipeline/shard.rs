//! Deterministic partitions of a batch, for scale-out on an existing scheduler.

use std::fmt;

use sha2::{Digest, Sha256};

/// The K-th (from 0 here, from 1 on the command line) of N partitions of a batch's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("shard must be K/N, got {text:?}"))?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("shard K is not a number: {text:?}"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard N is not a number: {text:?}"))?;
        if n == 0 || k == 0 || k > n {
            return Err(format!("shard must satisfy 1 <= K <= N, got {text:?}"));
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    /// The shard a scheduler assigned, from the environment: a Kubernetes Indexed Job
    /// (`JOB_COMPLETION_INDEX`, from 0, of `JOB_COMPLETIONS`) or a Slurm job array
    /// (`SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`, counted from
    /// `SLURM_ARRAY_TASK_MIN`, default 0). `None` when neither is set.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, String> {
        let number = |name: &str| -> Result<Option<u64>, String> {
            match get(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{name} is not a number: {v:?}")),
            }
        };
        let pair = |index: Option<u64>, count: Option<u64>, what: &str| match (index, count) {
            (Some(index), Some(count)) if count > 0 && index < count => {
                Ok(Some(Shard { index, count }))
            }
            (Some(_), Some(_)) => Err(format!("{what}: the index must be below the count")),
            (Some(_), None) | (None, Some(_)) => {
                Err(format!("{what}: set both the index and the count"))
            }
            (None, None) => Ok(None),
        };
        if let Some(shard) = pair(
            number("JOB_COMPLETION_INDEX")?,
            number("JOB_COMPLETIONS")?,
            "Kubernetes Indexed Job",
        )? {
            return Ok(Some(shard));
        }
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let id = number("SLURM_ARRAY_TASK_ID")?.map(|id| id.saturating_sub(min));
        pair(id, number("SLURM_ARRAY_TASK_COUNT")?, "Slurm job array")
    }

    /// Whether the input with `identity` belongs to this shard: the first 8 bytes of its
    /// SHA-256, big-endian, modulo N.
    pub fn selects(&self, identity: &str) -> bool {
        let digest = Sha256::digest(identity.as_bytes());
        let mut head = [0u8; 8];
        head.copy_from_slice(&digest[..8]);
        u64::from_be_bytes(head) % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_one_based_shards() {
        assert_eq!(Shard::parse("1/3").unwrap(), Shard { index: 0, count: 3 });
        assert_eq!(Shard::parse("3/3").unwrap().to_string(), "3/3");
        for bad in ["0/3", "4/3", "1/0", "x/2", "2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_identity_lands_in_exactly_one_shard() {
        for n in 1..=5 {
            for i in 0..200 {
                let identity = format!("/inputs/app-{i}.asar");
                let hits = (0..n)
                    .filter(|&k| Shard { index: k, count: n }.selects(&identity))
                    .count();
                assert_eq!(hits, 1);
            }
        }
    }

    #[test]
    fn schedulers_assign_shards_through_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert_eq!(Shard::from_env(env(&[])).unwrap(), None);
        assert_eq!(
            Shard::from_env(env(&[
                ("JOB_COMPLETION_INDEX", "2"),
                ("JOB_COMPLETIONS", "4")
            ]))
            .unwrap(),
            Some(Shard { index: 2, count: 4 })
        );
        assert_eq!(
            Shard::from_env(env(&[
                ("SLURM_ARRAY_TASK_ID", "5"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "8")
            ]))
            .unwrap(),
            Some(Shard { index: 4, count: 8 })
        );
        assert!(
            Shard::from_env(env(&[
                ("JOB_COMPLETION_INDEX", "4"),
                ("JOB_COMPLETIONS", "4")
            ]))
            .is_err()
        );
        assert!(Shard::from_env(env(&[("SLURM_ARRAY_TASK_ID", "1")])).is_err());
    }
}
