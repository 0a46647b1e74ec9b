//! Exact decimal printing of fixed-point numbers.
//!
//! replay.md asks for rates and alpha "printed from the fixed-point state without rounding
//! loss". A binary fraction `n / 2^k` always has a finite decimal expansion with at most `k`
//! fractional digits; this module prints exactly that, trimmed, with at least one
//! fractional digit (`50000.0`, `0.9990234375`).

/// The exact decimal value of `n / 2^frac_bits` (`frac_bits <= 60`).
pub fn exact_decimal(n: u64, frac_bits: u32) -> String {
    assert!(frac_bits <= 60);
    let int = n >> frac_bits;
    let frac = n & ((1u64 << frac_bits) - 1);
    // frac / 2^k == frac * 5^k / 10^k; 5^k * frac fits in u128 for k <= 60.
    let scaled = frac as u128 * 5u128.pow(frac_bits);
    let mut digits = if frac_bits == 0 {
        String::new()
    } else {
        format!("{:0width$}", scaled, width = frac_bits as usize)
    };
    while digits.ends_with('0') {
        digits.pop();
    }
    if digits.is_empty() {
        digits.push('0');
    }
    format!("{int}.{digits}")
}

#[cfg(test)]
mod tests {
    use super::exact_decimal;

    #[test]
    fn exact_values() {
        assert_eq!(exact_decimal(50000 << 8, 8), "50000.0");
        assert_eq!(exact_decimal(1023 << 10, 20), "0.9990234375");
        assert_eq!(exact_decimal(1, 20), "0.00000095367431640625");
        assert_eq!(exact_decimal(1 << 20, 20), "1.0");
        assert_eq!(exact_decimal(3, 1), "1.5");
        assert_eq!(exact_decimal(0, 8), "0.0");
        assert_eq!(exact_decimal(7, 0), "7.0");
    }
}
