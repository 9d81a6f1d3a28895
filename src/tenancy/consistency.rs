//! Read-your-writes across read replicas: a WAL position, and the consistency token that carries one
//! between a client and the service (`Cairn-Consistency-Token`, written as Postgres writes a `pg_lsn`).

/// A WAL position (`pg_lsn`) as bytes from the start of the WAL.
pub type Lsn = u64;

/// Formats a position as Postgres writes it (`16/B374D848`): the consistency token.
pub fn format_lsn(lsn: Lsn) -> String {
    format!("{:X}/{:X}", lsn >> 32, lsn & 0xFFFF_FFFF)
}

/// Parses a position written as Postgres writes it; None for anything else.
pub fn parse_lsn(text: &str) -> Option<Lsn> {
    let (high, low) = text.split_once('/')?;
    let valid = |part: &str| !part.is_empty() && part.len() <= 8 && part.bytes().all(|b| b.is_ascii_hexdigit());
    if !valid(high) || !valid(low) {
        return None;
    }
    Some((u64::from_str_radix(high, 16).ok()? << 32) | u64::from_str_radix(low, 16).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_read_and_write_as_postgres_does() {
        assert_eq!(parse_lsn("16/B374D848"), Some(0x16_B374_D848));
        assert_eq!(format_lsn(0x16_B374_D848), "16/B374D848");
        assert_eq!(parse_lsn("0/0"), Some(0));
        for bad in ["", "16", "/1", "1/", "g/1", "1/2/3", "123456789/0", " 1/2", "-1/2"] {
            assert_eq!(parse_lsn(bad), None, "{bad:?}");
        }
    }
}
