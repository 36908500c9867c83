//! HostSampler on the captured trees of tests/data/host (rates worked out by hand from the
//! trees' files, as tests/unit/test_host.c does) and on the machine's own /proc.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;

use llmmetrics::{ErrorKind, EventLog, EventType, HostSampler, HostSignal, HostThreshold};

const SEC: u64 = 1_000_000_000;
const STEP: u64 = SEC / 2;

fn trees() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/data/host")
}

/// Write every file under `from` over the same path under `to` (in place: the sampler keeps
/// its files open), making directories as needed.
fn copy_over(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_over(&e.path(), &dst);
        } else {
            fs::write(&dst, fs::read(e.path()).unwrap()).unwrap();
        }
    }
}

struct Tree {
    src: PathBuf,
    dir: PathBuf,
}

impl Tree {
    fn new(name: &str, tag: &str) -> Tree {
        let dir = std::env::temp_dir().join(format!("llmm_host_rs_{}_{}", std::process::id(), tag));
        let t = Tree { src: trees().join(name), dir };
        t.step("t0");
        t
    }
    fn step(&self, step: &str) {
        copy_over(&self.src.join(step), &self.dir);
    }
    fn root(&self) -> &str {
        self.dir.to_str().unwrap()
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

// The 5.10 layout, t0 → t1 in 0.5 s: ctxt +100000, wait +50 ms, pgmigrate_success +7, memory
// PSI +30 ms, throttled_usec +20000, frequency 3000 → 2000 MHz; t2 refuses the vmstat signals
// (a cut line) and the context switches (the counter went back).
#[test]
fn captured_tree_rates_and_events() {
    let tree = Tree::new("linux-5.10", "rates");
    let mut s = HostSampler::new(Some(tree.root())).unwrap();
    let mut log = EventLog::new(0).unwrap();
    s.sample(SEC, Some(&mut log)).unwrap();
    assert_eq!(s.rate(HostSignal::CpuFreqMhz).unwrap(), 3000.0);
    assert_eq!(s.rate(HostSignal::CtxSwitches).unwrap_err().kind(), ErrorKind::Empty);
    tree.step("t1");
    s.sample(SEC + STEP, Some(&mut log)).unwrap();
    let want = [0.0, 0.0, 200000.0, 0.1, 14.0, 0.0, 0.06, 0.0, 2000.0, 0.04];
    for (sig, w) in HostSignal::ALL.iter().zip(want) {
        assert_eq!(s.rate(*sig).unwrap(), w, "{sig:?}");
    }
    let got: Vec<(EventType, f64)> =
        log.lookback(SEC + STEP, 0).unwrap().iter().map(|e| (e.kind, e.value)).collect();
    assert_eq!(
        got,
        vec![
            (EventType::CPU_THROTTLE, 0.04),
            (EventType::CPU_FREQ_DROP, 2000.0),
            (EventType::MEMORY_PRESSURE, 0.06),
            (EventType::NUMA_MIGRATION, 14.0),
            (EventType::SCHED_JITTER, 0.1),
        ]
    );
    tree.step("t2");
    s.sample(2 * SEC, None).unwrap();
    for sig in [HostSignal::MajorFaults, HostSignal::NumaMigrations, HostSignal::CtxSwitches] {
        assert_eq!(s.rate(sig).unwrap_err().kind(), ErrorKind::Corrupt, "{sig:?}");
    }
    assert_eq!(s.sample(2 * SEC, None).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn thresholds_and_unavailable_signals() {
    let tree = Tree::new("linux-5.10", "thresholds");
    let mut s = HostSampler::new(Some(tree.root())).unwrap();
    let mut log = EventLog::new(0).unwrap();
    s.set_threshold(HostThreshold::CtxSwitchesAbove, 1e5).unwrap();
    s.set_threshold(HostThreshold::RunDelayAbove, 0.1).unwrap();
    s.set_threshold(HostThreshold::CpuFreqDrop, 0.5).unwrap();
    s.set_threshold(HostThreshold::CpuThrottleAbove, f64::INFINITY).unwrap();
    assert_eq!(s.threshold(HostThreshold::PsiCpuAbove).unwrap(), 0.2);
    assert_eq!(
        s.set_threshold(HostThreshold::CpuFreqDrop, 1.5).unwrap_err().kind(),
        ErrorKind::Range
    );
    s.sample(SEC, Some(&mut log)).unwrap();
    tree.step("t1");
    s.sample(SEC + STEP, Some(&mut log)).unwrap();
    let kinds: Vec<EventType> =
        log.lookback(SEC + STEP, 0).unwrap().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        vec![EventType::MEMORY_PRESSURE, EventType::NUMA_MIGRATION, EventType::CTX_SWITCHES]
    );

    let garbage = trees().join("garbage/t0");
    let g = HostSampler::new(garbage.to_str()).unwrap();
    for sig in HostSignal::ALL {
        assert_eq!(g.rate(sig).unwrap_err().kind(), ErrorKind::State, "{sig:?}");
    }
    assert_eq!(HostSampler::new(Some("a\0b")).err().unwrap().kind(), ErrorKind::Invalid);
    assert_eq!(HostSignal::PsiCpu.name(), "psi_cpu");
    assert_eq!(HostSignal::RunDelay.event_type(), EventType::SCHED_JITTER);
    assert_eq!(EventType::CPU_PRESSURE.attr_name(), Some("cpu.pressure"));
}

// Two threads hand a token back and forth 500 times: each blocks 500 times, so the host's
// context-switch count grows by at least 500.
#[test]
fn real_context_switches() {
    let mut s = HostSampler::new(None).unwrap();
    let (to_b, from_a) = mpsc::channel::<()>();
    let (to_a, from_b) = mpsc::channel::<()>();
    let t0 = llmmetrics::now_ns();
    s.sample(t0, None).unwrap();
    let b = thread::spawn(move || {
        for _ in 0..500 {
            from_a.recv().unwrap();
            to_a.send(()).unwrap();
        }
    });
    for _ in 0..500 {
        to_b.send(()).unwrap();
        from_b.recv().unwrap();
    }
    b.join().unwrap();
    let t1 = llmmetrics::now_ns();
    s.sample(t1, None).unwrap();
    let n = s.rate(HostSignal::CtxSwitches).unwrap() * (t1 - t0) as f64 / 1e9;
    assert!(n >= 500.0 * (1.0 - 1e-9), "{n} context switches for 500 round trips");
}
