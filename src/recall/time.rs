//! Time expressions for recall's `since` / `until`: ISO 8601, or natural language in English and German
//! ("yesterday", "last week", "3 days ago", "this month", "vor 2 Wochen", "gestern", "letzten Monat",
//! "seit Montag", ...).
//!
//! Hand-written: the maintained crates for this (chrono-english, interim) understand English only. Every
//! phrase denotes a span of time, so one parse serves both bounds: `since` takes its start, `until` its
//! end ("until yesterday" includes yesterday). Calendar phrases use UTC days and ISO weeks (Monday first).

use chrono::{DateTime, Datelike, Duration, Months, NaiveDate, TimeZone, Utc, Weekday};

use crate::memory::parse_timestamp;

/// A span of time `[start, end)`; a point in time has `start == end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeSpan {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl TimeSpan {
    fn point(t: DateTime<Utc>) -> Self {
        Self { start: t, end: t }
    }

    fn days(first: NaiveDate, count: i64) -> Self {
        let start = midnight(first);
        Self { start, end: start + Duration::days(count) }
    }
}

fn midnight(day: NaiveDate) -> DateTime<Utc> {
    Utc.from_utc_datetime(&day.and_hms_opt(0, 0, 0).expect("midnight exists"))
}

#[derive(Debug, Clone, Copy)]
enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

fn unit(word: &str) -> Option<Unit> {
    let unit = match word {
        "s" | "sec" | "secs" | "second" | "seconds" | "sekunde" | "sekunden" => Unit::Second,
        "min" | "mins" | "minute" | "minutes" | "minuten" => Unit::Minute,
        "h" | "hr" | "hrs" | "hour" | "hours" | "stunde" | "stunden" => Unit::Hour,
        "d" | "day" | "days" | "tag" | "tage" | "tagen" | "tages" => Unit::Day,
        "w" | "week" | "weeks" | "woche" | "wochen" => Unit::Week,
        "month" | "months" | "monat" | "monate" | "monaten" | "monats" => Unit::Month,
        "y" | "year" | "years" | "jahr" | "jahre" | "jahren" | "jahres" => Unit::Year,
        _ => return None,
    };
    Some(unit)
}

fn number(word: &str) -> Option<u32> {
    if let Ok(n) = word.parse::<u32>() {
        return (n <= 100_000).then_some(n);
    }
    let n = match word {
        "a" | "an" | "one" | "ein" | "eine" | "einer" | "einem" | "einen" | "eins" => 1,
        "two" | "zwei" | "couple" => 2,
        "three" | "drei" | "few" => 3,
        "four" | "vier" => 4,
        "five" | "fünf" | "fuenf" => 5,
        "six" | "sechs" => 6,
        "seven" | "sieben" => 7,
        "eight" | "acht" => 8,
        "nine" | "neun" => 9,
        "ten" | "zehn" => 10,
        "eleven" | "elf" => 11,
        "twelve" | "zwölf" | "zwoelf" => 12,
        _ => return None,
    };
    Some(n)
}

fn weekday(word: &str) -> Option<Weekday> {
    let day = match word {
        "monday" | "montag" | "mon" => Weekday::Mon,
        "tuesday" | "dienstag" | "tue" => Weekday::Tue,
        "wednesday" | "mittwoch" | "wed" => Weekday::Wed,
        "thursday" | "donnerstag" | "thu" => Weekday::Thu,
        "friday" | "freitag" | "fri" => Weekday::Fri,
        "saturday" | "samstag" | "sonnabend" | "sat" => Weekday::Sat,
        "sunday" | "sonntag" | "sun" => Weekday::Sun,
        _ => return None,
    };
    Some(day)
}

fn month(word: &str) -> Option<u32> {
    let m = match word {
        "january" | "januar" | "jänner" | "jan" => 1,
        "february" | "februar" | "feb" => 2,
        "march" | "märz" | "maerz" | "mar" => 3,
        "april" | "apr" => 4,
        "may" | "mai" => 5,
        "june" | "juni" | "jun" => 6,
        "july" | "juli" | "jul" => 7,
        "august" | "aug" => 8,
        "september" | "sep" | "sept" => 9,
        "october" | "oktober" | "oct" | "okt" => 10,
        "november" | "nov" => 11,
        "december" | "dezember" | "dec" | "dez" => 12,
        _ => return None,
    };
    Some(m)
}

/// Whether a word is a calendar year written out (1900..=2199).
pub fn is_year(word: &str) -> bool {
    year(word).is_some()
}

/// A calendar year written out (1900..=2199).
fn year(word: &str) -> Option<i32> {
    let y: i32 = word.parse().ok().filter(|_| word.len() == 4)?;
    (1900..2200).contains(&y).then_some(y)
}

/// A day of the month: "13", "13th", "1st", "13." (German).
fn day_of_month(word: &str) -> Option<u32> {
    let digits = word.trim_end_matches(['.']).trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let d: u32 = digits.parse().ok()?;
    let suffix = &word[digits.len()..];
    (matches!(suffix, "" | "." | "st" | "nd" | "rd" | "th") && (1..=31).contains(&d)).then_some(d)
}

fn year_span(y: i32) -> Option<TimeSpan> {
    let first = NaiveDate::from_ymd_opt(y, 1, 1)?;
    Some(TimeSpan { start: midnight(first), end: midnight(NaiveDate::from_ymd_opt(y + 1, 1, 1)?) })
}

fn month_span(y: i32, m: u32) -> Option<TimeSpan> {
    let first = NaiveDate::from_ymd_opt(y, m, 1)?;
    Some(TimeSpan { start: midnight(first), end: midnight(first.checked_add_months(Months::new(1))?) })
}

fn day_span(y: i32, m: u32, d: u32) -> Option<TimeSpan> {
    Some(TimeSpan::days(NaiveDate::from_ymd_opt(y, m, d)?, 1))
}

/// The month a word names, in English or German (full or abbreviated).
pub fn month_named(word: &str) -> Option<u32> {
    month(word)
}

/// Whether a word is an amount ("3", "two", "a", "zwei").
pub fn is_amount(word: &str) -> bool {
    number(word).is_some()
}

/// Whether a word names a weekday, in English or German.
pub fn is_weekday(word: &str) -> bool {
    weekday(word).is_some()
}

/// `now` moved back by `n` units (calendar-aware for months and years).
fn ago(now: DateTime<Utc>, n: u32, unit: Unit) -> Option<DateTime<Utc>> {
    let n64 = i64::from(n);
    match unit {
        Unit::Second => now.checked_sub_signed(Duration::seconds(n64)),
        Unit::Minute => now.checked_sub_signed(Duration::minutes(n64)),
        Unit::Hour => now.checked_sub_signed(Duration::hours(n64)),
        Unit::Day => now.checked_sub_signed(Duration::days(n64)),
        Unit::Week => now.checked_sub_signed(Duration::weeks(n64)),
        Unit::Month => now.checked_sub_months(Months::new(n)),
        Unit::Year => now.checked_sub_months(Months::new(n.checked_mul(12)?)),
    }
}

/// The calendar period (day, week, month, year) containing `now`, shifted back by `back` periods.
fn period(now: DateTime<Utc>, unit: Unit, back: u32) -> Option<TimeSpan> {
    let today = now.date_naive();
    match unit {
        Unit::Day => Some(TimeSpan::days(today - Duration::days(i64::from(back)), 1)),
        Unit::Week => {
            let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
            Some(TimeSpan::days(monday - Duration::weeks(i64::from(back)), 7))
        }
        Unit::Month => {
            let first =
                NaiveDate::from_ymd_opt(today.year(), today.month(), 1)?.checked_sub_months(Months::new(back))?;
            let next = first.checked_add_months(Months::new(1))?;
            Some(TimeSpan { start: midnight(first), end: midnight(next) })
        }
        Unit::Year => {
            let first = NaiveDate::from_ymd_opt(today.year() - i32::try_from(back).ok()?, 1, 1)?;
            let next = NaiveDate::from_ymd_opt(first.year() + 1, 1, 1)?;
            Some(TimeSpan { start: midnight(first), end: midnight(next) })
        }
        Unit::Second | Unit::Minute | Unit::Hour => None,
    }
}

/// The most recent `day` on or before today (`strict`: before today).
fn last_weekday(now: DateTime<Utc>, day: Weekday, strict: bool) -> TimeSpan {
    let today = now.date_naive();
    let mut back = (7 + today.weekday().num_days_from_monday() - day.num_days_from_monday()) % 7;
    if strict && back == 0 {
        back = 7;
    }
    TimeSpan::days(today - Duration::days(i64::from(back)), 1)
}

/// The most recent occurrence of a month (this year's if it has begun, else last year's).
fn last_month_named(now: DateTime<Utc>, m: u32) -> Option<TimeSpan> {
    let year = if m <= now.month() { now.year() } else { now.year() - 1 };
    let first = NaiveDate::from_ymd_opt(year, m, 1)?;
    Some(TimeSpan { start: midnight(first), end: midnight(first.checked_add_months(Months::new(1))?) })
}

const THIS: &[&str] = &["this", "current", "diese", "dieser", "diesen", "dieses", "diesem"];
const LAST: &[&str] = &[
    "last",
    "previous",
    "past",
    "letzte",
    "letzten",
    "letzter",
    "letztes",
    "vorige",
    "vorigen",
    "voriger",
    "voriges",
    "vergangene",
    "vergangenen",
    "vergangener",
    "vergangenes",
];
/// Words that carry no meaning here: "since", "seit", "ab", "in den", "im", "the".
const FILLER: &[&str] = &["since", "seit", "ab", "from", "in", "den", "im", "the", "am"];

/// Parses an ISO 8601 timestamp or date, or an English or German phrase, relative to `now`.
pub fn parse_time(input: &str, now: DateTime<Utc>) -> Option<TimeSpan> {
    let trimmed = input.trim();
    if let Some(t) = parse_timestamp(trimmed) {
        // A bare date names the whole day.
        let is_date = trimmed.len() == 10;
        return Some(if is_date { TimeSpan::days(t.date_naive(), 1) } else { TimeSpan::point(t) });
    }
    let lowered = trimmed.to_lowercase();
    let words: Vec<&str> = lowered
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | '!' | '?'))
        .filter(|w| !w.is_empty() && *w != "of")
        .collect();
    let start = words.iter().take_while(|w| FILLER.contains(w)).count();
    phrase(&words[start..], now)
}

fn phrase(words: &[&str], now: DateTime<Utc>) -> Option<TimeSpan> {
    let today = now.date_naive();
    match words {
        ["now" | "jetzt" | "right now"] => Some(TimeSpan::point(now)),
        ["today" | "heute"] | ["earlier", "today"] => Some(TimeSpan::days(today, 1)),
        ["yesterday" | "gestern"] => Some(TimeSpan::days(today - Duration::days(1), 1)),
        ["vorgestern"] | ["day", "before", "yesterday"] => Some(TimeSpan::days(today - Duration::days(2), 1)),
        ["last", "night"] => Some(TimeSpan::days(today - Duration::days(1), 1)),
        // "3 days ago", "a week ago", "two months ago"
        [n, u, "ago"] => Some(TimeSpan::point(ago(now, number(n)?, unit(u)?)?)),
        [u, "ago"] => Some(TimeSpan::point(ago(now, 1, unit(u)?)?)),
        // "vor 2 Wochen", "vor einer Woche", "vor 3 Tagen"; "seit 3 Tagen" arrives here without "seit"
        ["vor", n, u] | [n, u] if number(n).is_some() => Some(TimeSpan::point(ago(now, number(n)?, unit(u)?)?)),
        ["vor", u] => Some(TimeSpan::point(ago(now, 1, unit(u)?)?)),
        // "last 7 days", "past 2 weeks", "letzte 3 Tage": from then until now
        [l, n, u] if LAST.contains(l) => Some(TimeSpan { start: ago(now, number(n)?, unit(u)?)?, end: now }),
        // "this week", "diesen Monat"; "last month", "letztes Jahr", "last monday", "letzten Montag"
        [t, u] if THIS.contains(t) => period(now, unit(u)?, 0),
        [l, w] if LAST.contains(l) => match (unit(w), weekday(w)) {
            (Some(u), _) => period(now, u, 1),
            (None, Some(day)) => Some(last_weekday(now, day, true)),
            _ => None,
        },
        // "Monday", "seit Montag"
        [w] if weekday(w).is_some() => Some(last_weekday(now, weekday(w)?, false)),
        // "January", "im März"
        [m] if month(m).is_some() => last_month_named(now, month(m)?),
        // "2023", "May 2023", "13 October 2023", "October 13, 2023", "13. Oktober 2023"
        [y] => year_span(year(y)?),
        [m, y] => month_span(year(y)?, month(m)?),
        [d, m, y] if month(m).is_some() => day_span(year(y)?, month(m)?, day_of_month(d)?),
        [m, d, y] => day_span(year(y)?, month(m)?, day_of_month(d)?),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Wednesday, 2026-11-25 15:30 UTC.
    pub(crate) fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 15, 30, 0).unwrap()
    }

    /// Midnight UTC of a day.
    pub(crate) fn at(y: i32, m: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, 0, 0, 0).unwrap()
    }

    fn span(text: &str) -> TimeSpan {
        parse_time(text, now()).unwrap_or_else(|| panic!("{text:?} did not parse"))
    }

    #[test]
    fn days() {
        assert_eq!(span("yesterday"), TimeSpan { start: at(2026, 11, 24), end: at(2026, 11, 25) });
        assert_eq!(span("Gestern"), span("yesterday"));
        assert_eq!(span("today"), TimeSpan { start: at(2026, 11, 25), end: at(2026, 11, 26) });
        assert_eq!(span("heute"), span("today"));
        assert_eq!(span("vorgestern").start, at(2026, 11, 23));
        assert_eq!(span("seit gestern").start, at(2026, 11, 24));
    }

    #[test]
    fn relative_amounts() {
        assert_eq!(span("3 days ago").start, now() - Duration::days(3));
        assert_eq!(span("a week ago").start, now() - Duration::weeks(1));
        assert_eq!(span("an hour ago").start, now() - Duration::hours(1));
        assert_eq!(span("two months ago").start, Utc.with_ymd_and_hms(2026, 9, 25, 15, 30, 0).unwrap());
        assert_eq!(span("vor 2 Wochen").start, now() - Duration::weeks(2));
        assert_eq!(span("vor einer Woche").start, now() - Duration::weeks(1));
        assert_eq!(span("vor drei Tagen").start, now() - Duration::days(3));
        assert_eq!(span("seit 3 Tagen").start, now() - Duration::days(3));
        let last7 = span("last 7 days");
        assert_eq!((last7.start, last7.end), (now() - Duration::days(7), now()));
        assert_eq!(span("in den letzten 2 Wochen").start, now() - Duration::weeks(2));
    }

    #[test]
    fn calendar_periods() {
        assert_eq!(span("this week"), TimeSpan { start: at(2026, 11, 23), end: at(2026, 11, 30) });
        assert_eq!(span("diese Woche"), span("this week"));
        assert_eq!(span("last week"), TimeSpan { start: at(2026, 11, 16), end: at(2026, 11, 23) });
        assert_eq!(span("letzte Woche"), span("last week"));
        assert_eq!(span("this month"), TimeSpan { start: at(2026, 11, 1), end: at(2026, 12, 1) });
        assert_eq!(span("diesen Monat"), span("this month"));
        assert_eq!(span("last month"), TimeSpan { start: at(2026, 10, 1), end: at(2026, 11, 1) });
        assert_eq!(span("letzten Monat"), span("last month"));
        assert_eq!(span("last year"), TimeSpan { start: at(2025, 1, 1), end: at(2026, 1, 1) });
        assert_eq!(span("letztes Jahr"), span("last year"));
        assert_eq!(span("this year").start, at(2026, 1, 1));
    }

    #[test]
    fn weekdays_and_months() {
        // Now is a Wednesday.
        assert_eq!(span("seit Montag").start, at(2026, 11, 23));
        assert_eq!(span("since monday"), span("seit Montag"));
        assert_eq!(span("wednesday").start, at(2026, 11, 25), "today counts");
        assert_eq!(span("last wednesday").start, at(2026, 11, 18), "last ... means before today");
        assert_eq!(span("letzten Freitag").start, at(2026, 11, 20));
        assert_eq!(span("since march").start, at(2026, 3, 1));
        assert_eq!(span("im Dezember").start, at(2025, 12, 1), "a month yet to come means last year's");
    }

    #[test]
    fn calendar_dates_written_out() {
        assert_eq!(span("2023"), TimeSpan { start: at(2023, 1, 1), end: at(2024, 1, 1) });
        assert_eq!(span("in May 2023"), TimeSpan { start: at(2023, 5, 1), end: at(2023, 6, 1) });
        assert_eq!(span("im Dezember 2022").start, at(2022, 12, 1));
        let day = TimeSpan { start: at(2023, 10, 13), end: at(2023, 10, 14) };
        assert_eq!(span("October 13, 2023"), day);
        assert_eq!(span("13 October 2023"), day);
        assert_eq!(span("13th of October 2023").start, day.start, "'of' is read past");
        assert_eq!(span("13. Oktober 2023"), day);
        assert_eq!(span("Oct 13th, 2023"), day);
        for text in ["February 30, 2023", "13 2023", "October 2023 13", "99", "20233", "32 May 2023"] {
            assert!(parse_time(text, now()).is_none(), "{text:?} should not parse");
        }
    }

    #[test]
    fn iso_forms() {
        assert_eq!(span("2024-12-31"), TimeSpan { start: at(2024, 12, 31), end: at(2025, 1, 1) });
        let t = span("2024-12-05T12:00:00Z");
        assert_eq!(t.start, t.end);
    }

    #[test]
    fn nonsense_is_refused() {
        for text in ["", "the day after the party", "soon", "vor langer Zeit", "last fortnight", "99999999 days ago"] {
            assert!(parse_time(text, now()).is_none(), "{text:?} should not parse");
        }
    }
}
