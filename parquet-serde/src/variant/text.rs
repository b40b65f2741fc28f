//! Text forms of Variant primitives (through the crate's one home of date, time, decimal and
//! uuid text, `values::text`).

use crate::core::format::TimeUnit;
use crate::core::values::text;

use super::value::Variant;

/// The decimal text of `unscaled × 10^-scale`.
pub(crate) fn decimal(unscaled: i128, scale: u8) -> String {
    let mut s = String::with_capacity(42);
    // Writing to a String cannot fail.
    let _ = text::decimal(unscaled, scale.into(), &mut s);
    s
}

/// The text of a date, time, timestamp or uuid (`None` for other types, or a date-time
/// outside what the calendar code prints).
pub(crate) fn temporal(v: &Variant) -> Option<String> {
    let mut s = String::with_capacity(36);
    let ok = match *v {
        Variant::Date(d) => text::date(d.into(), &mut s),
        Variant::Time(t) => text::time(t, TimeUnit::Micros, &mut s),
        Variant::TimestampMicros(t) => text::timestamp(t, TimeUnit::Micros, true, &mut s),
        Variant::TimestampNtzMicros(t) => text::timestamp(t, TimeUnit::Micros, false, &mut s),
        Variant::TimestampNanos(t) => text::timestamp(t, TimeUnit::Nanos, true, &mut s),
        Variant::TimestampNtzNanos(t) => text::timestamp(t, TimeUnit::Nanos, false, &mut s),
        Variant::Uuid(u) => text::uuid(&u, &mut s),
        _ => return None,
    };
    ok.is_ok().then_some(s)
}
