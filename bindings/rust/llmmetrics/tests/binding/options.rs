//! Option listings (`llmmetrics::options`) against the typed option enums and the objects:
//! each typed key is listed under its own name with the type its setter takes, a fresh object
//! holds the listed default, and the setter refuses the values just outside the listed bounds.
//! No default or bound is written here: the listing is the reference.

use std::fmt::Debug;

use llmmetrics::{
    options, BurnAlerter, BurnF64, BurnU64, CollapseDetector, CollapseF64, CollapseU64, ErrorKind,
    ErrorTrigger, Goodput, GoodputBound, HostSampler, HostThreshold, LiiMonitor, LiiThreshold,
    MissingPolicy, ObjectKind, OptionBounds, OptionInfo, Result, SaturationSignal, Scenario,
    Scorecard, SpikeDetector, SpikeF64, SpikeU64, StabilityGate,
};

const KINDS: [ObjectKind; 10] = [
    ObjectKind::Spike,
    ObjectKind::Collapse,
    ObjectKind::Stability,
    ObjectKind::Saturation,
    ObjectKind::LiiMonitor,
    ObjectKind::Scorecard,
    ObjectKind::Goodput,
    ObjectKind::Burn,
    ObjectKind::ErrorTrigger,
    ObjectKind::HostSampler,
];

fn entry(kind: ObjectKind, name: &str) -> OptionInfo {
    options(kind).find(|o| o.name == name).unwrap_or_else(|| panic!("{kind:?} lists no {name}"))
}

/// `SevereFactor` -> `severe_factor`.
fn snake(variant: &impl Debug) -> String {
    let mut out = String::new();
    for (i, c) in format!("{variant:?}").chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The neighbour of a finite double toward +inf (`up`) or -inf.
fn step(x: f64, up: bool) -> f64 {
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let bits = x.to_bits();
    f64::from_bits(if (x > 0.0) == up { bits + 1 } else { bits - 1 })
}

/// A value of an option's type: its listed default and the values just outside its bounds.
trait Listed: Copy + PartialEq + Debug {
    fn default_of(o: &OptionInfo) -> Option<Self>;
    fn outside(o: &OptionInfo) -> Vec<Self>;
}

/// `Listed` for the type of the `OptionBounds` variant, given the values just outside the
/// bounds `min`, `max` of an option `o`.
macro_rules! listed {
    ($t:ty, $variant:ident, |$o:ident, $min:ident, $max:ident| $outside:block) => {
        impl Listed for $t {
            fn default_of(o: &OptionInfo) -> Option<$t> {
                match o.bounds {
                    OptionBounds::$variant { default, .. } => default,
                    _ => panic!("{} is not a {} option", o.name, stringify!($t)),
                }
            }
            fn outside($o: &OptionInfo) -> Vec<$t> {
                let ($min, $max) = match $o.bounds {
                    OptionBounds::$variant { min, max, .. } => (min, max),
                    _ => panic!("{} is not a {} option", $o.name, stringify!($t)),
                };
                $outside
            }
        }
    };
}

listed!(f64, F64, |o, min, max| {
    let below = if o.min_exclusive { min } else { step(min, false) };
    let above = if o.max_exclusive || !max.is_finite() { max } else { step(max, true) };
    [below, above].into_iter().filter(|v| v.is_finite()).collect()
});

listed!(u64, U64, |o, min, max| {
    let below = if o.min_exclusive { Some(min) } else { min.checked_sub(1) };
    let above = if o.max_exclusive { Some(max) } else { max.checked_add(1) };
    below.into_iter().chain(above).collect()
});

enum Op<T> {
    Get,
    Set(T),
}

/// Check one typed key of a fresh object through `access` (a getter and a setter in one
/// closure): listed under `key`'s name, default held, values outside refused.
fn check<T: Listed, K: Debug + Copy>(
    kind: ObjectKind,
    key: K,
    access: &mut dyn FnMut(K, Op<T>) -> Result<T>,
) {
    let o = entry(kind, &snake(&key));
    if let Some(d) = T::default_of(&o) {
        assert_eq!(access(key, Op::Get).unwrap(), d, "{kind:?}.{}: default", o.name);
    }
    for v in T::outside(&o) {
        let err = access(key, Op::Set(v)).expect_err(&format!("{kind:?}.{} = {v:?}", o.name));
        assert_eq!(err.kind(), ErrorKind::Range, "{kind:?}.{} = {v:?}", o.name);
    }
}

#[test]
fn every_kind_lists_its_options_in_key_order() {
    for kind in KINDS {
        let all: Vec<OptionInfo> = options(kind).collect();
        assert!(!all.is_empty(), "{kind:?}");
        for w in all.windows(2) {
            assert!(w[0].key < w[1].key && !w[1].name.is_empty(), "{kind:?}: {w:?}");
        }
    }
    // u64 bounds are exact beyond 2^53; the SLO target comes from the constructor
    let long = entry(ObjectKind::Burn, "fast_long_ns");
    assert!(matches!(long.bounds, OptionBounds::U64 { max: u64::MAX, .. }));
    assert!(matches!(
        entry(ObjectKind::Burn, "slo_target").bounds,
        OptionBounds::F64 { default: None, .. }
    ));
}

#[test]
fn typed_keys_agree_with_the_listing() {
    let mut d = SpikeDetector::new().unwrap();
    for key in [SpikeF64::BaseQuantile, SpikeF64::SevereQuantile, SpikeF64::SevereFactor] {
        check(ObjectKind::Spike, key, &mut |k, op| match op {
            Op::Get => d.get_f64(k),
            Op::Set(v) => d.set_f64(k, v).map(|_| v),
        });
    }
    for key in [SpikeU64::Warmup, SpikeU64::SlotNs, SpikeU64::Slots, SpikeU64::Scale] {
        check(ObjectKind::Spike, key, &mut |k, op| match op {
            Op::Get => d.get_u64(k),
            Op::Set(v) => d.set_u64(k, v).map(|_| v),
        });
    }
    let mut c = CollapseDetector::new().unwrap();
    for key in
        [CollapseF64::K, CollapseF64::SigmaFloor, CollapseF64::TpsDrop, CollapseF64::MembwBelow]
    {
        check(ObjectKind::Collapse, key, &mut |k, op| match op {
            Op::Get => c.get_f64(k),
            Op::Set(v) => c.set_f64(k, v).map(|_| v),
        });
    }
    for key in [
        CollapseU64::Window,
        CollapseU64::SwitchNs,
        CollapseU64::RequireSwitch,
        CollapseU64::ConfirmNs,
    ] {
        check(ObjectKind::Collapse, key, &mut |k, op| match op {
            Op::Get => c.get_u64(k),
            Op::Set(v) => c.set_u64(k, v).map(|_| v),
        });
    }
    let mut b = BurnAlerter::new(0.999, 0, 0).unwrap();
    for key in [BurnF64::SloTarget, BurnF64::FastFactor, BurnF64::SlowFactor] {
        check(ObjectKind::Burn, key, &mut |k, op| match op {
            Op::Get => b.get_f64(k),
            Op::Set(v) => b.set_f64(k, v).map(|_| v),
        });
    }
    for key in
        [BurnU64::FastLongNs, BurnU64::FastShortNs, BurnU64::SlowLongNs, BurnU64::SlowShortNs]
    {
        check(ObjectKind::Burn, key, &mut |k, op| match op {
            Op::Get => b.get_u64(k),
            Op::Set(v) => b.set_u64(k, v).map(|_| v),
        });
    }
    let mut h = HostSampler::new(None).unwrap();
    for key in [
        HostThreshold::TcpRetransAbove,
        HostThreshold::MajorFaultsAbove,
        HostThreshold::CtxSwitchesAbove,
        HostThreshold::RunDelayAbove,
        HostThreshold::NumaMigrationsAbove,
        HostThreshold::PsiCpuAbove,
        HostThreshold::PsiMemoryAbove,
        HostThreshold::PsiIoAbove,
        HostThreshold::CpuFreqDrop,
        HostThreshold::CpuThrottleAbove,
    ] {
        check(ObjectKind::HostSampler, key, &mut |k, op| match op {
            Op::Get => h.threshold(k),
            Op::Set(v) => h.set_threshold(k, v).map(|_| v),
        });
    }
    assert_eq!(options(ObjectKind::HostSampler).count(), 10);
    let mut m = LiiMonitor::new(0).unwrap();
    for key in [LiiThreshold::PrefetchAt, LiiThreshold::AdaptAt, LiiThreshold::ScaleAt] {
        check(ObjectKind::LiiMonitor, key, &mut |k, op| match op {
            Op::Get => m.threshold(k),
            Op::Set(v) => m.set_threshold(k, v).map(|_| v),
        });
    }
}

/// The objects whose options have one method pair each: the enum-less keys by their names.
#[derive(Clone, Copy, Debug)]
enum Named {
    Windows,
    Epsilon,
    Window,
    Confidence,
    TtftMax,
    TpotMax,
    E2eMax,
    MaxShare,
    MinRequests,
}

/// `check` of the option `Named::$name` of `ObjectKind::$kind` through the fixed-key getter
/// and setter of `$obj`.
macro_rules! check_named {
    ($kind:ident, $name:ident, $obj:ident.$get:ident / $set:ident) => {
        check(ObjectKind::$kind, Named::$name, &mut |_, op| match op {
            Op::Get => $obj.$get(),
            Op::Set(v) => $obj.$set(v).map(|_| v),
        })
    };
}

#[test]
fn option_methods_agree_with_the_listing() {
    let mut g = StabilityGate::new().unwrap();
    check_named!(Stability, Windows, g.windows / set_windows);
    check_named!(Stability, Epsilon, g.epsilon / set_epsilon);
    let mut s = SaturationSignal::new().unwrap();
    check_named!(Saturation, Window, s.window / set_window);
    check_named!(Saturation, Confidence, s.confidence / set_confidence);
    let mut gp = Goodput::new().unwrap();
    for (name, bound) in [
        (Named::TtftMax, GoodputBound::TtftMax),
        (Named::TpotMax, GoodputBound::TpotMax),
        (Named::E2eMax, GoodputBound::E2eMax),
    ] {
        check(ObjectKind::Goodput, name, &mut |_, op| match op {
            Op::Get => gp.bound(bound),
            Op::Set(v) => gp.set_bound(bound, v).map(|_| v),
        });
    }
    let mut t = ErrorTrigger::new(0).unwrap();
    check_named!(ErrorTrigger, MaxShare, t.max_share / set_max_share);
    check_named!(ErrorTrigger, MinRequests, t.min_requests / set_min_requests);
    // the scorecard's policy is an enum in Rust: only its default can be compared
    let sc = Scorecard::new(Scenario::CodeAssistant).unwrap();
    let missing = entry(ObjectKind::Scorecard, "missing");
    let want = match missing.bounds {
        OptionBounds::I32 { default: Some(d), .. } => d,
        b => panic!("missing: {b:?}"),
    };
    assert_eq!(sc.missing_policy().unwrap() as i32, want);
    assert_eq!(MissingPolicy::Refuse as i32, want);
}
