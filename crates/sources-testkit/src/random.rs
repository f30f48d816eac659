//! A small seeded generator (xorshift64*) for tests that make random edits: the same seed makes the
//! same edits on every run, so a failure reproduces.

/// The generator's state.
#[derive(Debug, Clone)]
pub struct Random(u64);

impl Random {
    /// A generator started from `seed` (0 is replaced, as xorshift would stay at 0).
    pub fn new(seed: u64) -> Random {
        Random(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// A number below `bound` (0 when `bound` is 0).
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % bound.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::Random;

    #[test]
    fn a_seed_repeats_its_numbers_and_they_stay_below_the_bound() {
        let numbers = |seed| {
            let mut random = Random::new(seed);
            (0..100).map(|_| random.below(7)).collect::<Vec<_>>()
        };
        assert_eq!(numbers(3), numbers(3));
        assert_ne!(numbers(3), numbers(4));
        assert!(numbers(0).iter().all(|&number| number < 7));
        assert!((0..7).all(|value| numbers(5).contains(&value)));
        assert_eq!(Random::new(1).below(0), 0);
    }
}
