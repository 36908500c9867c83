//! The event log for spike attribution, and correlation of paired series.

use std::ffi::CStr;

use llmmetrics_sys as ffi;

use crate::context::{self, Context};
use crate::error::{check, Error, Result};
use crate::object::{get, Owned};

/// An event type: one of the known causes or a caller's own id (≥ [`EventType::USER`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventType(pub i32);

impl EventType {
    /// A TCP segment was retransmitted (`net.tcp.retrans`).
    pub const TCP_RETRANSMIT: EventType = EventType(ffi::LLMM_EVENT_TCP_RETRANSMIT);
    /// A major page fault (`mem.major_fault`).
    pub const MAJOR_FAULT: EventType = EventType(ffi::LLMM_EVENT_MAJOR_FAULT);
    /// Scheduler wake-up jitter (`sched.jitter`).
    pub const SCHED_JITTER: EventType = EventType(ffi::LLMM_EVENT_SCHED_JITTER);
    /// A page or task migrated between NUMA nodes (`mem.numa_migration`).
    pub const NUMA_MIGRATION: EventType = EventType(ffi::LLMM_EVENT_NUMA_MIGRATION);
    /// Weights changed precision or were swapped (`model.weight_switch`).
    pub const WEIGHT_SWITCH: EventType = EventType(ffi::LLMM_EVENT_WEIGHT_SWITCH);
    /// A garbage-collection pause (`runtime.gc_pause`).
    pub const GC_PAUSE: EventType = EventType(ffi::LLMM_EVENT_GC_PAUSE);
    /// Tasks stalled waiting for a CPU (`cpu.pressure`; since 1.1.0).
    pub const CPU_PRESSURE: EventType = EventType(ffi::LLMM_EVENT_CPU_PRESSURE);
    /// Tasks stalled on memory (`mem.pressure`; since 1.1.0).
    pub const MEMORY_PRESSURE: EventType = EventType(ffi::LLMM_EVENT_MEMORY_PRESSURE);
    /// Tasks stalled on block I/O (`io.pressure`; since 1.1.0).
    pub const IO_PRESSURE: EventType = EventType(ffi::LLMM_EVENT_IO_PRESSURE);
    /// The CPU frequency fell (`cpu.freq_drop`; since 1.1.0).
    pub const CPU_FREQ_DROP: EventType = EventType(ffi::LLMM_EVENT_CPU_FREQ_DROP);
    /// Context switches above a bound (`sched.ctx_switches`; since 1.1.0).
    pub const CTX_SWITCHES: EventType = EventType(ffi::LLMM_EVENT_CTX_SWITCHES);
    /// The cgroup's CPU quota ran out (`cpu.throttle`; since 1.1.0).
    pub const CPU_THROTTLE: EventType = EventType(ffi::LLMM_EVENT_CPU_THROTTLE);
    /// The first id of the caller's own types.
    pub const USER: EventType = EventType(ffi::LLMM_EVENT_USER);

    /// The library's stable attribute name of a known type (`None` for user and other ids).
    pub fn attr_name(self) -> Option<&'static str> {
        // SAFETY: any value is accepted; the result is NULL or a static string.
        let p = unsafe { ffi::llmm_event_attr_name(self.0) };
        if p.is_null() {
            None
        } else {
            // SAFETY: static NUL-terminated string.
            unsafe { CStr::from_ptr(p) }.to_str().ok()
        }
    }
}

/// One event returned by [`EventLog::lookback`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// The event's time stamp.
    pub time_ns: u64,
    /// How long before the query's time stamp it happened.
    pub before_ns: u64,
    /// The value given with the event.
    pub value: f64,
    /// Its type.
    pub kind: EventType,
}

/// One event with the trace it belongs to, returned by [`EventLog::lookback_traced`]; an
/// all-zero id means none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TracedEvent {
    /// The event as [`EventLog::lookback`] returns it.
    pub event: Event,
    /// W3C trace id.
    pub trace_id: [u8; 16],
    /// Span id within the trace.
    pub span_id: [u8; 8],
}

fn event(time_ns: u64, before_ns: u64, value: f64, kind: i32) -> Event {
    Event { time_ns, before_ns, value, kind: EventType(kind) }
}

/// The records a look-back `call(out, cap, &mut len)` writes, the buffer grown (with copies of
/// `fill`) to the size the library asks for.
fn grow<T: Clone>(
    fill: T,
    mut call: impl FnMut(*mut T, usize, &mut usize) -> ffi::llmm_status,
) -> Result<Vec<T>> {
    let mut raw: Vec<T> = Vec::new();
    loop {
        let mut len = 0usize;
        let st = call(raw.as_mut_ptr(), raw.len(), &mut len);
        if st == ffi::LLMM_E_BUFFER && len > raw.len() {
            raw.resize(len, fill.clone());
            continue;
        }
        check(st)?;
        raw.truncate(len);
        return Ok(raw);
    }
}

/// Counts of an [`EventLog`] since creation or reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventLogCounts {
    /// Events in the ring now.
    pub held: u64,
    /// Events accepted.
    pub total: u64,
    /// Events pushed out of the full ring.
    pub dropped: u64,
}

/// Default capacity of an [`EventLog`].
pub const EVENT_LOG_CAPACITY_DEFAULT: u32 = ffi::LLMM_EVENT_LOG_CAPACITY_DEFAULT;

constructors!(
    /// A bounded, time-ordered ring of typed events (`llmm_event_log`): the candidate causes of
    /// a spike are the events shortly before it.
    ///
    /// ```
    /// use llmmetrics::{EventLog, EventType};
    ///
    /// const MS: u64 = 1_000_000;
    /// let mut log = EventLog::new(0)?;
    /// log.add(100 * MS, EventType::GC_PAUSE, 12.0)?;
    /// log.add(180 * MS, EventType::TCP_RETRANSMIT, 1.0)?;
    /// let causes = log.lookback(200 * MS, 50 * MS)?;   // what happened in the 50 ms before
    /// assert_eq!(causes.len(), 1);
    /// assert_eq!(causes[0].kind, EventType::TCP_RETRANSMIT);
    /// assert_eq!(causes[0].before_ns, 20 * MS);
    /// assert_eq!(EventType::GC_PAUSE.attr_name(), Some("runtime.gc_pause"));
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub struct EventLog(ffi::llmm_event_log) = ffi::llmm_event_log_new;
    /// A log keeping the last `capacity` events (0 for 1024).
    ///
    /// # Errors
    /// `Range` for a capacity above 16777216; `NoMem`.
    (capacity: u32));

impl EventLog {
    /// The raw handle, for calls that write into the log (the host sampler).
    pub(crate) fn as_mut_ptr(&mut self) -> *mut ffi::llmm_event_log {
        self.raw.ptr()
    }

    /// Record an event (time stamps never go backwards; the oldest event leaves a full ring).
    ///
    /// # Errors
    /// `Invalid` for type 0, a negative or reserved type, a non-finite value or time going
    /// backwards.
    pub fn add(&mut self, now_ns: u64, kind: EventType, value: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_event_log_add(self.raw.ptr(), now_ns, kind.0, value) })
    }

    /// The events stamped in `[at_ns − lookback_ns, at_ns]`, nearest to `at_ns` first.
    pub fn lookback(&self, at_ns: u64, lookback_ns: u64) -> Result<Vec<Event>> {
        let raw = grow(ffi::llmm_event::default(), |out, cap, len| {
            // SAFETY: live handle; `out` has `cap` initialised records to write into.
            unsafe {
                ffi::llmm_event_log_lookback(self.raw.ptr(), at_ns, lookback_ns, out, cap, len)
            }
        })?;
        Ok(raw.iter().map(|e| event(e.time_ns, e.before_ns, e.value, e.r#type)).collect())
    }

    /// Record an event that belongs to a trace (`None`: no id), read back by
    /// [`EventLog::lookback_traced`]; the first one allocates 24 bytes per event of the
    /// capacity for the ids.
    ///
    /// # Errors
    /// As [`EventLog::add`]; `NoMem` for the ids' storage (nothing changed).
    pub fn add_traced(
        &mut self,
        now_ns: u64,
        kind: EventType,
        value: f64,
        trace_id: Option<&[u8; 16]>,
        span_id: Option<&[u8; 8]>,
    ) -> Result<()> {
        let tr = trace_id.map_or(std::ptr::null(), |t| t.as_ptr());
        let sp = span_id.map_or(std::ptr::null(), |s| s.as_ptr());
        // SAFETY: live handle, exclusive borrow; the ids are 16 and 8 readable bytes or NULL.
        check(unsafe {
            ffi::llmm_event_log_add_traced(self.raw.ptr(), now_ns, kind.0, value, tr, sp)
        })
    }

    /// [`EventLog::lookback`] with each event's trace and span ids.
    pub fn lookback_traced(&self, at_ns: u64, lookback_ns: u64) -> Result<Vec<TracedEvent>> {
        let fill: ffi::llmm_traced_event = crate::sized::try_defaults()?;
        let raw = grow(fill, |out, cap, len| {
            // SAFETY: live handle; `out` has `cap` records, each set up by llmm_struct_init.
            unsafe {
                ffi::llmm_event_log_lookback_traced(
                    self.raw.ptr(),
                    at_ns,
                    lookback_ns,
                    out,
                    cap,
                    len,
                )
            }
        })?;
        Ok(raw
            .iter()
            .map(|e| TracedEvent {
                event: event(e.time_ns, e.before_ns, e.value, e.r#type),
                trace_id: e.trace_id,
                span_id: e.span_id,
            })
            .collect())
    }

    /// Events of one type (`None`: every type) stamped in `[from_ns, to_ns]`.
    pub fn count(&self, kind: Option<EventType>, from_ns: u64, to_ns: u64) -> Result<u64> {
        let mut n = 0;
        let t = kind.map_or(0, |k| k.0);
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_event_log_count(self.raw.ptr(), t, from_ns, to_ns, &mut n) })?;
        Ok(n)
    }

    /// Events held, accepted and dropped.
    pub fn counts(&self) -> EventLogCounts {
        let mut c = EventLogCounts::default();
        // SAFETY: live handle; fails only for NULL.
        let st = unsafe {
            ffi::llmm_event_log_counts(self.raw.ptr(), &mut c.held, &mut c.total, &mut c.dropped)
        };
        debug_assert_eq!(st, ffi::LLMM_OK);
        c
    }

    /// Forget every event, the counts and the clock; the capacity stays.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_event_log_reset(self.raw.ptr()) })
    }
}

debug_fields!(EventLog, "counts" = { counts() });

/// Correlation coefficient of [`correlation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CorrelationMethod {
    /// Pearson's product-moment r.
    Pearson = 1,
    /// Spearman's ρ (Pearson's r of the ranks, ties averaged).
    Spearman = 2,
}

/// Correlation of the pairs `(x[i], y[i])` (at least 2), in [−1, 1].
///
/// ```
/// use llmmetrics::{correlation, CorrelationMethod};
///
/// // doc/spec.md §6: scheduler jitter against NUMA-binding failure rates.
/// let jitter = [5.0, 25.0, 50.0];
/// let numa = [1.2, 37.6, 89.3];
/// assert!(correlation(&jitter, &numa, CorrelationMethod::Pearson)? > 0.99);
/// assert_eq!(correlation(&jitter, &numa, CorrelationMethod::Spearman)?, 1.0);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` for slices of different lengths or non-finite values; `Empty` for fewer than 2
/// pairs; `Range` when a series is constant; `NoMem` (Spearman's scratch).
pub fn correlation(x: &[f64], y: &[f64], method: CorrelationMethod) -> Result<f64> {
    correlation_in(None, x, y, method)
}

/// [`correlation`] with Spearman's scratch allocated from `ctx`.
pub fn correlation_in(
    ctx: Option<&Context>,
    x: &[f64],
    y: &[f64],
    method: CorrelationMethod,
) -> Result<f64> {
    if x.len() != y.len() {
        return Err(Error::invalid());
    }
    // SAFETY: both slices readable for `len`; valid out-pointer.
    get(|r| unsafe {
        ffi::llmm_correlation(
            context::raw(ctx),
            x.as_ptr(),
            y.as_ptr(),
            x.len(),
            method as ffi::llmm_correlation_method,
            r,
        )
    })
}
