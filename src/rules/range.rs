//! The one range check every family's fields go through, so every "out of range" error names the
//! field, the value and the same inclusive bounds.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    pub field: &'static str,
    pub value: i64,
    pub min: i64,
    pub max: i64,
}

impl OutOfRange {
    /// "0 to 63": the valid range as error messages show it.
    pub fn range_text(&self) -> String {
        format!("{} to {}", self.min, self.max)
    }
}

/// `value` when `min <= value <= max`, else which field and range it missed.
pub fn check(field: &'static str, value: i64, min: i64, max: i64) -> Result<i64, OutOfRange> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(OutOfRange { field, value, min, max })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_inclusive() {
        assert_eq!(check("sequence", 0, 0, 63), Ok(0));
        assert_eq!(check("sequence", 63, 0, 63), Ok(63));
        assert_eq!(check("partition", -1, 0, 65535).unwrap_err().range_text(), "0 to 65535");
        let error = check("sequence", 64, 0, 63).unwrap_err();
        assert_eq!((error.field, error.value, error.min, error.max), ("sequence", 64, 0, 63));
        assert!(check("x", i64::MIN, i64::MIN + 1, i64::MAX).is_err());
    }
}
