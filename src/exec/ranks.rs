//! How the ranks of an MPI count (`exec::mpi`, built with the feature `mpi`)
//! spent it: what each counted, how long its threads counted and waited,
//! the CPU its process used, and when its last results came in. Plain
//! data, built with or without the feature, so that reports can carry it:
//! `count --mpi --json` prints it under `mpi`, and what a run loses to
//! coordination is measured, not guessed.

use serde::Serialize;

/// How every rank spent an MPI count, as rank 0 saw it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MpiLoad {
    /// Each rank's load, by rank (rank 0 first).
    pub ranks: Vec<RankLoad>,
    /// Results messages rank 0 received, each answered at once: the round
    /// trips of the run.
    pub round_trips: u64,
    /// Seconds rank 0 spent coordinating, from its first hand-out to the
    /// last result.
    pub wall_s: f64,
    /// Seconds between the first rank's last results and the last rank's:
    /// the run's tail, when some ranks had nothing left to count.
    pub tail_s: f64,
    /// CPU seconds rank 0's calling thread, the one that talks to MPI,
    /// spent coordinating (its counting threads not included); `None`
    /// where the OS does not say.
    pub coordinator_cpu_s: Option<f64>,
}

impl MpiLoad {
    /// The load of `ranks` over `wall_s` seconds: each rank's busy share
    /// and the tail are worked out here.
    pub fn new(
        mut ranks: Vec<RankLoad>,
        round_trips: u64,
        wall_s: f64,
        coordinator_cpu_s: Option<f64>,
    ) -> MpiLoad {
        for rank in &mut ranks {
            let capacity = rank.threads as f64 * wall_s;
            rank.busy_share = if capacity > 0.0 {
                rank.busy_s / capacity
            } else {
                0.0
            };
        }
        let finished = ranks.iter().map(|r| r.finished_s);
        let last = finished.clone().fold(0.0, f64::max);
        let first = finished.fold(f64::INFINITY, f64::min);
        MpiLoad {
            ranks,
            round_trips,
            wall_s,
            tail_s: (last - first).max(0.0),
            coordinator_cpu_s,
        }
    }

    /// The threads that counted, over every rank.
    pub fn threads(&self) -> usize {
        self.ranks.iter().map(|r| r.threads).sum()
    }

    /// Every rank's GPU (`--gpu`) together: the pairs they compared, and
    /// the mean of their busy seconds; `None` where no rank had one.
    pub fn gpu(&self) -> Option<RankGpu> {
        let gpus: Vec<RankGpu> = self.ranks.iter().filter_map(|r| r.gpu).collect();
        if gpus.is_empty() {
            return None;
        }
        Some(RankGpu {
            pairs: gpus.iter().map(|g| g.pairs).sum(),
            busy_s: gpus.iter().map(|g| g.busy_s).sum::<f64>() / gpus.len() as f64,
        })
    }
}

/// How one rank spent an MPI count, as it told rank 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RankLoad {
    /// Its rank.
    pub rank: usize,
    /// Its threads.
    pub threads: usize,
    /// Items it counted.
    pub items: usize,
    /// Batches it counted.
    pub batches: usize,
    /// Thread-seconds spent counting items: at most its threads times the
    /// run's wall time; what falls short was idle.
    pub busy_s: f64,
    /// `busy_s` over its threads times rank 0's wall time.
    pub busy_share: f64,
    /// Seconds it held no batch at all while it waited for rank 0's reply
    /// (its whole pool idle); 0 for rank 0, which serves itself.
    pub starved_s: f64,
    /// The process's CPU seconds (user + system, every thread, from its
    /// start: its plan too), when it last reported; `None` where the OS
    /// does not say.
    pub cpu_s: Option<f64>,
    /// Seconds from rank 0's start until this rank's last results reached
    /// it.
    pub finished_s: f64,
    /// What its GPU did (`--gpu`), when it last reported; absent without
    /// one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<RankGpu>,
}

/// What one rank's GPU (`--gpu`) did, as it told rank 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RankGpu {
    /// Pairs of halves it compared.
    pub pairs: u64,
    /// Seconds at least one of its pair jobs was on it.
    pub busy_s: f64,
}

impl RankLoad {
    /// Rank `rank`, one thread, nothing counted yet.
    pub fn new(rank: usize) -> RankLoad {
        RankLoad {
            rank,
            threads: 1,
            ..RankLoad::default()
        }
    }

    /// Adds a batch of `items` that kept its threads busy `busy_s`
    /// thread-seconds.
    pub fn add_batch(&mut self, items: usize, busy_s: f64) {
        self.items += items;
        self.batches += 1;
        self.busy_s += busy_s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_tail_come_from_the_ranks_and_the_wall_time() {
        let mut a = RankLoad::new(0);
        a.threads = 2;
        a.add_batch(10, 3.0);
        a.add_batch(5, 0.6);
        a.finished_s = 1.9;
        let mut b = RankLoad::new(1);
        b.threads = 4;
        b.add_batch(20, 6.0);
        b.finished_s = 2.0;
        let load = MpiLoad::new(vec![a, b], 7, 2.0, None);
        assert_eq!((load.ranks[0].items, load.ranks[0].batches), (15, 2));
        assert!((load.ranks[0].busy_share - 0.9).abs() < 1e-12);
        assert!((load.ranks[1].busy_share - 0.75).abs() < 1e-12);
        assert!((load.tail_s - 0.1).abs() < 1e-12);
        assert_eq!(load.threads(), 6);
        // No GPU on any rank: none to report.
        assert_eq!(load.gpu(), None);
        // No wall time: no share, not a division by zero.
        assert_eq!(
            MpiLoad::new(vec![RankLoad::new(0)], 0, 0.0, None).ranks[0].busy_share,
            0.0
        );
    }

    #[test]
    fn gpu_pairs_add_up_over_the_ranks_and_busy_is_their_mean() {
        let mut ranks: Vec<RankLoad> = (0..3).map(RankLoad::new).collect();
        ranks[0].gpu = Some(RankGpu {
            pairs: 5,
            busy_s: 1.0,
        });
        ranks[2].gpu = Some(RankGpu {
            pairs: 7,
            busy_s: 3.0,
        });
        let load = MpiLoad::new(ranks, 4, 4.0, None);
        assert_eq!(
            load.gpu(),
            Some(RankGpu {
                pairs: 12,
                busy_s: 2.0
            })
        );
    }
}
