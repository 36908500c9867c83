//! Test helpers: deterministic data, exact references, a raw C sketch, a counting allocator.

use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use llmmetrics::sys;
use llmmetrics::{RawAllocator, RustAllocator};

/// splitmix64: a small deterministic generator (no external crates).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Log-normal with the given median and sigma (Box-Muller).
    pub fn lognormal(&mut self, median: f64, sigma: f64) -> f64 {
        let (u1, u2) = (self.uniform(), self.uniform());
        let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
        median * (sigma * z).exp()
    }
}

pub fn lognormal_data(seed: u64, n: usize, median: f64, sigma: f64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.lognormal(median, sigma)).collect()
}

/// Exact nearest-rank quantile of sorted data (doc/spec.md §5: rank max(1, ceil(q·n)), q·n
/// within 1e-9 of an integer counts as that integer).
pub fn exact_quantile(sorted: &[f64], q: f64) -> f64 {
    let qn = q * sorted.len() as f64;
    let rank = if (qn - qn.round()).abs() <= 1e-9 { qn.round() } else { qn.ceil() };
    let rank = (rank as usize).max(1);
    sorted[rank - 1]
}

pub fn sorted(v: &[f64]) -> Vec<f64> {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    s
}

pub const QS: [f64; 13] =
    [0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999, 1.0];

pub fn assert_rel(got: f64, want: f64, rel: f64, what: &str) {
    let err = (got - want).abs() / want.abs();
    assert!(
        err <= rel,
        "{}: got {} want {} (relative error {:e} > {:e})",
        what,
        got,
        want,
        err,
        rel
    );
}

/// A sketch driven directly through the -sys crate: the C library's own answer.
pub struct RawSketch(pub *mut sys::llmm_sketch);

impl RawSketch {
    pub fn new(scale: i32) -> RawSketch {
        let mut p = ptr::null_mut();
        assert_eq!(unsafe { sys::llmm_sketch_new(ptr::null_mut(), scale, &mut p) }, sys::LLMM_OK);
        RawSketch(p)
    }

    pub fn add_each(&mut self, v: &[f64]) {
        for &x in v {
            assert_eq!(unsafe { sys::llmm_sketch_add(self.0, x) }, sys::LLMM_OK);
        }
    }

    pub fn quantile(&self, q: f64) -> f64 {
        let mut out = 0.0;
        assert_eq!(unsafe { sys::llmm_sketch_quantile(self.0, q, &mut out) }, sys::LLMM_OK);
        out
    }

    pub fn sum(&self) -> f64 {
        let mut out = 0.0;
        assert_eq!(unsafe { sys::llmm_sketch_sum(self.0, &mut out) }, sys::LLMM_OK);
        out
    }

    pub fn count(&self) -> u64 {
        unsafe { sys::llmm_sketch_count(self.0) }
    }

    pub fn span(&self) -> (i32, i32) {
        let (mut a, mut b) = (0, 0);
        assert_eq!(unsafe { sys::llmm_sketch_bucket_span(self.0, &mut a, &mut b) }, sys::LLMM_OK);
        (a, b)
    }

    pub fn bucket(&self, i: i32) -> u64 {
        unsafe { sys::llmm_sketch_bucket_count(self.0, i) }
    }
}

impl Drop for RawSketch {
    fn drop(&mut self) {
        unsafe { sys::llmm_sketch_free(self.0) }
    }
}

/// Counters shared between a [`Counting`] allocator and the test that installed it.
#[derive(Default)]
pub struct Counts {
    pub allocs: AtomicUsize,
    pub frees: AtomicUsize,
    pub live_bytes: AtomicUsize,
    /// Fail the k-th allocation (alloc or realloc) from now on; 0: never.
    pub fail_at: AtomicUsize,
    pub attempts: AtomicUsize,
}

impl Counts {
    pub fn live(&self) -> usize {
        self.live_bytes.load(Ordering::SeqCst)
    }

    pub fn fail_nth(&self, k: usize) {
        self.attempts.store(0, Ordering::SeqCst);
        self.fail_at.store(k, Ordering::SeqCst);
    }

    fn should_fail(&self) -> bool {
        let k = self.fail_at.load(Ordering::SeqCst);
        let n = self.attempts.fetch_add(1, Ordering::SeqCst) + 1;
        k != 0 && n == k
    }
}

/// A counting, optionally failing allocator over Rust's global allocator.
pub struct Counting(pub Arc<Counts>);

unsafe impl RawAllocator for Counting {
    fn alloc(&self, size: usize) -> *mut u8 {
        if self.0.should_fail() {
            return ptr::null_mut();
        }
        let p = RustAllocator.alloc(size);
        if !p.is_null() {
            assert_eq!(p as usize % 16, 0);
            self.0.allocs.fetch_add(1, Ordering::SeqCst);
            self.0.live_bytes.fetch_add(size, Ordering::SeqCst);
        }
        p
    }

    unsafe fn realloc(&self, p: *mut u8, old: usize, new: usize) -> *mut u8 {
        if self.0.should_fail() {
            return ptr::null_mut();
        }
        let q = RustAllocator.realloc(p, old, new);
        if !q.is_null() {
            self.0.live_bytes.fetch_add(new, Ordering::SeqCst);
            self.0.live_bytes.fetch_sub(old, Ordering::SeqCst);
        }
        q
    }

    unsafe fn free(&self, p: *mut u8, size: usize) {
        self.0.frees.fetch_add(1, Ordering::SeqCst);
        self.0.live_bytes.fetch_sub(size, Ordering::SeqCst);
        RustAllocator.free(p, size)
    }
}
