//! Option metadata: every tunable of every object kind, as the library lists it
//! (`llmm_option_describe`). The typed option enums of the objects ([`SpikeF64`](crate::SpikeF64),
//! [`BurnU64`](crate::BurnU64) …) name the keys; their types, bounds and defaults are read here,
//! never restated.

use std::ffi::CStr;

use llmmetrics_sys as ffi;

/// The object kinds that have options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// [`SpikeDetector`](crate::SpikeDetector)
    Spike = 1,
    /// [`CollapseDetector`](crate::CollapseDetector)
    Collapse = 2,
    /// [`StabilityGate`](crate::StabilityGate)
    Stability = 3,
    /// [`SaturationSignal`](crate::SaturationSignal)
    Saturation = 4,
    /// [`LiiMonitor`](crate::LiiMonitor)
    LiiMonitor = 5,
    /// [`Scorecard`](crate::Scorecard)
    Scorecard = 6,
    /// [`Goodput`](crate::Goodput)
    Goodput = 7,
    /// [`BurnAlerter`](crate::BurnAlerter)
    Burn = 8,
    /// [`ErrorTrigger`](crate::ErrorTrigger)
    ErrorTrigger = 9,
    /// [`HostSampler`](crate::HostSampler) (since 1.1.0)
    HostSampler = 10,
}

/// The type of an option with its bounds and default; `default` is `None` when a constructor
/// argument sets the value. u64 values are exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionBounds {
    /// Set with `set_f64` (`max` may be infinite).
    F64 {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// Value of a new object.
        default: Option<f64>,
    },
    /// Set with `set_u64`.
    U64 {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
        /// Value of a new object.
        default: Option<u64>,
    },
    /// Set with an `i32` setter.
    I32 {
        /// Smallest value.
        min: i32,
        /// Largest value.
        max: i32,
        /// Value of a new object.
        default: Option<i32>,
    },
}

/// One option of an object kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptionInfo {
    /// Stable lower-case name, e.g. `"severe_factor"`.
    pub name: &'static str,
    /// The key: the discriminant of the object's option enum.
    pub key: i32,
    /// Type, bounds and default.
    pub bounds: OptionBounds,
    /// The minimum itself is refused.
    pub min_exclusive: bool,
    /// The maximum itself is refused.
    pub max_exclusive: bool,
    /// May only change while the object holds no data.
    pub fixed_once_started: bool,
    /// Also constrained by another option or by how the object was made.
    pub cross_checked: bool,
}

/// Iterator over the options of a kind, in key order; see [`options`].
#[derive(Clone, Debug)]
pub struct Options {
    kind: ObjectKind,
    index: u32,
}

/// The options of an object kind, in key order.
///
/// ```
/// use llmmetrics::{options, ObjectKind, OptionBounds};
///
/// let factor = options(ObjectKind::Spike).find(|o| o.name == "severe_factor").unwrap();
/// assert!(matches!(factor.bounds, OptionBounds::F64 { default: Some(_), .. }));
/// ```
pub fn options(kind: ObjectKind) -> Options {
    Options { kind, index: 0 }
}

impl Iterator for Options {
    type Item = OptionInfo;

    /// The next option; `None` after the last (or for a kind the loaded library does not
    /// know). An option of a type this crate does not know (from a newer library) is skipped.
    fn next(&mut self) -> Option<OptionInfo> {
        loop {
            let kind = self.kind as ffi::llmm_object_kind;
            // SAFETY: valid out-pointer sized by struct_size; reads constant tables only.
            let d =
                crate::sized::read(|d| unsafe { ffi::llmm_option_describe(kind, self.index, d) })
                    .ok()?;
            self.index += 1;
            if let Some(o) = info(&d) {
                return Some(o);
            }
        }
    }
}

fn info(d: &ffi::llmm_option_info) -> Option<OptionInfo> {
    let has = d.has_default != 0;
    let bounds = match d.r#type {
        ffi::LLMM_OPTION_F64 => OptionBounds::F64 {
            min: d.min_f64,
            max: d.max_f64,
            default: has.then_some(d.default_f64),
        },
        ffi::LLMM_OPTION_U64 => OptionBounds::U64 {
            min: d.min_u64,
            max: d.max_u64,
            default: has.then_some(d.default_u64),
        },
        ffi::LLMM_OPTION_I32 => OptionBounds::I32 {
            min: d.min_i32,
            max: d.max_i32,
            default: has.then_some(d.default_i32),
        },
        _ => return None,
    };
    // SAFETY: the library's names are static NUL-terminated ASCII strings.
    let name = unsafe { CStr::from_ptr(d.name) }.to_str().unwrap_or("");
    Some(OptionInfo {
        name,
        key: d.key,
        bounds,
        min_exclusive: d.min_exclusive != 0,
        max_exclusive: d.max_exclusive != 0,
        fixed_once_started: d.fixed_once_started != 0,
        cross_checked: d.cross_checked != 0,
    })
}
