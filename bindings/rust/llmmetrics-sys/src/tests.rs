//! Checks of the generated declarations against the loaded library: constants against the
//! library's own names for them, struct sizes against `struct_size` as the `_init` calls set it,
//! field offsets through calls whose results are known in closed form.

use super::*;
use std::ffi::CStr;
use std::mem::{size_of, MaybeUninit};
use std::ptr;

fn c_str(p: *const c_char) -> &'static str {
    assert!(!p.is_null());
    unsafe { CStr::from_ptr(p) }.to_str().unwrap()
}

#[test]
fn status_constants_match_the_library_names() {
    let expected = [
        (LLMM_OK, "LLMM_OK"),
        (LLMM_E_INVALID, "LLMM_E_INVALID"),
        (LLMM_E_NOMEM, "LLMM_E_NOMEM"),
        (LLMM_E_RANGE, "LLMM_E_RANGE"),
        (LLMM_E_EMPTY, "LLMM_E_EMPTY"),
        (LLMM_E_CORRUPT, "LLMM_E_CORRUPT"),
        (LLMM_E_VERSION, "LLMM_E_VERSION"),
        (LLMM_E_BUFFER, "LLMM_E_BUFFER"),
        (LLMM_E_UNKNOWN_OPTION, "LLMM_E_UNKNOWN_OPTION"),
        (LLMM_E_STATE, "LLMM_E_STATE"),
        (LLMM_E_NOT_CONVERGED, "LLMM_E_NOT_CONVERGED"),
        (LLMM_E_ABI, "LLMM_E_ABI"),
    ];
    for (code, name) in expected {
        assert_eq!(c_str(unsafe { llmm_status_name(code) }), name);
        assert!(!c_str(unsafe { llmm_strerror(code) }).is_empty());
    }
    assert_eq!(c_str(unsafe { llmm_status_name(-12345) }), "LLMM_E_UNKNOWN_STATUS");
    assert_eq!(c_str(unsafe { llmm_strerror(LLMM_E_INVALID) }), "invalid argument");
}

#[test]
fn library_version_is_compatible() {
    let v = unsafe { llmm_version() };
    assert_eq!(v / 10000, LLMM_VERSION_MAJOR);
    assert!(v >= LLMM_VERSION_NUMBER);
    let s = c_str(unsafe { llmm_version_string() });
    let parts: Vec<u32> = s.split('.').map(|p| p.parse().unwrap()).collect();
    assert_eq!(parts.len(), 3);
    assert_eq!(parts[0] * 10000 + parts[1] * 100 + parts[2], v);
}

#[test]
fn struct_sizes_match_the_init_calls() {
    unsafe {
        // The struct `$init` sets up, its `struct_size` checked against the crate's size.
        macro_rules! init_checked {
            ($t:ident => $init:ident) => {{
                let mut r = MaybeUninit::<$t>::zeroed();
                assert_eq!($init(r.as_mut_ptr()), LLMM_OK);
                let r = r.assume_init();
                assert_eq!(r.struct_size as usize, size_of::<$t>(), stringify!($t));
                r
            }};
        }

        let a = init_checked!(llmm_allocator => llmm_allocator_init);
        assert!(a.alloc.is_some() && a.realloc.is_some() && a.free.is_some());

        let k = init_checked!(llmm_knee => llmm_knee_init);
        assert_eq!(k.quality, LLMM_KNEE_NONE);
        assert!(k.knee.is_nan() && k.qps.is_nan());

        let u = init_checked!(llmm_usl => llmm_usl_init);
        assert!(u.lambda.is_nan() && u.kappa.is_nan());

        let o = init_checked!(llmm_knee_options => llmm_knee_options_init);
        // The documented defaults land in the fields of the same names.
        assert_eq!(
            (o.smooth, o.trim, o.collapse_fraction, o.kneedle_sensitivity),
            (0, 0.1, 0.5, 1.0)
        );

        let o = init_checked!(llmm_otlp_options => llmm_otlp_options_init);
        assert_eq!(
            (o.unit_to_seconds, o.max_buckets, o.temporality),
            (1.0, 0, LLMM_OTLP_CUMULATIVE)
        );
        assert!(o.attributes.is_null() && o.unit.is_null() && o.resource_attributes.is_null());

        macro_rules! size_checked {
            ($($t:ident => $init:ident),*) => {$(init_checked!($t => $init);)*};
        }
        size_checked!(
            llmm_score_result => llmm_score_result_init,
            llmm_lii_reading => llmm_lii_reading_init,
            llmm_kv_occupancy_result => llmm_kv_occupancy_result_init,
            llmm_spike_stats => llmm_spike_stats_init,
            llmm_fit_stats => llmm_fit_stats_init,
            llmm_kv_hit_reading => llmm_kv_hit_reading_init,
            llmm_tlb_reading => llmm_tlb_reading_init,
            llmm_slo_result => llmm_slo_result_init,
            llmm_goodput_result => llmm_goodput_result_init,
            llmm_burn_result => llmm_burn_result_init,
            llmm_error_trigger_reading => llmm_error_trigger_reading_init,
            llmm_collapse_verdict => llmm_collapse_verdict_init,
            llmm_collapse_report => llmm_collapse_report_init,
            llmm_stability_reading => llmm_stability_reading_init,
            llmm_saturation_reading => llmm_saturation_reading_init
        );
        // An array element without a size prefix: its layout is fixed at 32 bytes.
        assert_eq!(size_of::<llmm_event>(), 32);
        for (t, name) in [
            (LLMM_EVENT_TCP_RETRANSMIT, LLMM_EVENT_ATTR_TCP_RETRANSMIT),
            (LLMM_EVENT_MAJOR_FAULT, LLMM_EVENT_ATTR_MAJOR_FAULT),
            (LLMM_EVENT_SCHED_JITTER, LLMM_EVENT_ATTR_SCHED_JITTER),
            (LLMM_EVENT_NUMA_MIGRATION, LLMM_EVENT_ATTR_NUMA_MIGRATION),
            (LLMM_EVENT_WEIGHT_SWITCH, LLMM_EVENT_ATTR_WEIGHT_SWITCH),
            (LLMM_EVENT_GC_PAUSE, LLMM_EVENT_ATTR_GC_PAUSE),
        ] {
            assert_eq!(CStr::from_ptr(llmm_event_attr_name(t)).to_bytes_with_nul(), name);
        }
        assert!(llmm_event_attr_name(LLMM_EVENT_USER).is_null());

        assert_eq!(llmm_allocator_init(ptr::null_mut()), LLMM_E_INVALID);
    }
}

#[test]
fn kv_occupancy_fields_line_up() {
    // B = 16, T = 100, U = 10, K = 150: every field is a dyadic-friendly closed form.
    unsafe {
        let mut r = MaybeUninit::<llmm_kv_occupancy_result>::zeroed();
        assert_eq!(llmm_kv_occupancy_result_init(r.as_mut_ptr()), LLMM_OK);
        assert_eq!(llmm_kv_occupancy(16, 100, 10, 150, r.as_mut_ptr()), LLMM_OK);
        let r = r.assume_init();
        assert_eq!(r.reserved_, 0);
        assert_eq!(r.wasted_slots, 10);
        assert_eq!(r.block_occupancy, 0.1);
        assert_eq!(r.token_occupancy, 150.0 / 1600.0);
        assert!((r.gap - 10.0 / 1600.0).abs() < 1e-15);
        assert!((r.internal_fragmentation - 0.0625).abs() < 1e-15);
    }
}

#[test]
fn sketch_round_trip_through_raw_calls() {
    unsafe {
        let mut s = ptr::null_mut();
        assert_eq!(llmm_sketch_new(ptr::null_mut(), LLMM_SCALE_DEFAULT, &mut s), LLMM_OK);
        assert!(!s.is_null());
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(llmm_sketch_add_many(s, v.as_ptr(), v.len()), LLMM_OK);
        assert_eq!(llmm_sketch_count(s), 4);
        let (mut lo, mut hi) = (0.0, 0.0);
        assert_eq!(llmm_sketch_range(s, &mut lo, &mut hi), LLMM_OK);
        assert_eq!((lo, hi), (LLMM_SKETCH_RANGE_MIN_DEFAULT, LLMM_SKETCH_RANGE_MAX_DEFAULT));
        let mut q = 0.0;
        assert_eq!(llmm_sketch_quantile(s, 1.0, &mut q), LLMM_OK);
        assert_eq!(q, 4.0);
        assert_eq!(llmm_sketch_scale(s), LLMM_SCALE_DEFAULT);
        llmm_sketch_free(s);
        let mut bad = ptr::NonNull::dangling().as_ptr();
        assert_eq!(llmm_sketch_new(ptr::null_mut(), LLMM_SCALE_MAX + 1, &mut bad), LLMM_E_INVALID);
        assert!(bad.is_null());
        llmm_sketch_free(ptr::null_mut());
    }
}

/// `llmm_struct_init` at this crate's `size_of` writes exactly that struct, for every kind;
/// a size the library never released is refused and nothing is written.
#[test]
fn struct_init_takes_the_crates_own_sizes() {
    for (i, &(kind, size)) in SIZE_PREFIXED.iter().enumerate() {
        assert_eq!(kind as usize, i + 1);
        let mut buf = [0xA5u8; 256];
        let st = unsafe { llmm_struct_init(kind, buf.as_mut_ptr() as *mut c_void, size as u32) };
        assert_eq!(st, LLMM_OK, "kind {}", kind);
        assert_eq!(u32::from_ne_bytes([buf[0], buf[1], buf[2], buf[3]]) as usize, size);
        assert!(buf[size..].iter().all(|&b| b == 0xA5), "kind {} wrote past its size", kind);
        for wrong in [0, 4, size + 1, size + 8] {
            let mut buf = [0xA5u8; 256];
            let p = buf.as_mut_ptr() as *mut c_void;
            assert_eq!(unsafe { llmm_struct_init(kind, p, wrong as u32) }, LLMM_E_ABI);
            assert!(buf.iter().all(|&b| b == 0xA5));
        }
    }
    // the kinds listed are every kind the library knows: the next one is refused at any size
    let mut buf = [0u8; 256];
    let p = buf.as_mut_ptr() as *mut c_void;
    let next = SIZE_PREFIXED.len() as llmm_struct_kind + 1;
    for &(_, size) in SIZE_PREFIXED {
        assert_eq!(unsafe { llmm_struct_init(next, p, size as u32) }, LLMM_E_ABI);
    }
    assert_eq!(unsafe { llmm_struct_init(99, p, 32) }, LLMM_E_ABI);
    assert_eq!(unsafe { llmm_struct_init(LLMM_STRUCT_KNEE, ptr::null_mut(), 32) }, LLMM_E_INVALID);
}

#[test]
fn option_info_layout_matches_the_library() {
    unsafe {
        let mut d = MaybeUninit::<llmm_option_info>::zeroed().assume_init();
        d.struct_size = size_of::<llmm_option_info>() as u32;
        assert_eq!(llmm_option_describe(LLMM_KIND_SPIKE, 0, &mut d), LLMM_OK);
        assert_eq!(d.key, LLMM_SPIKE_BASE_QUANTILE);
        assert_eq!(d.r#type, LLMM_OPTION_F64);
        assert_eq!(c_str(d.name), "base_quantile");
        assert_eq!((d.min_exclusive, d.max_exclusive, d.has_default), (1, 1, 1));
        assert!(d.min_f64 == 0.0 && d.max_f64 == 1.0 && d.default_f64 > 0.0);
        // the last field: the scorecard's policy is an i32 option with bounds 0 ..= 1
        assert_eq!(llmm_option_describe(LLMM_KIND_SCORECARD, 0, &mut d), LLMM_OK);
        assert_eq!((d.r#type, d.min_i32, d.max_i32, d.reserved_), (LLMM_OPTION_I32, 0, 1, 0));
        d.struct_size -= 8;
        assert_eq!(llmm_option_describe(LLMM_KIND_SPIKE, 0, &mut d), LLMM_E_ABI);
    }
}
