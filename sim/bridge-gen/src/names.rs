//! Names: Verilator's C++ member names, Rust identifiers, struct names.

/// Panics unless `name` is lowercase snake case (`[a-z][a-z0-9_]*`): it becomes file names,
/// a C symbol prefix and a Verilator `--prefix`.
pub(crate) fn check_top_name(name: &str) {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_lowercase());
    let rest_ok = chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    assert!(
        first_ok && rest_ok,
        "top name {name:?} must match [a-z][a-z0-9_]*"
    );
}

/// The C++ member name Verilator gives a Verilog identifier: letters, digits and single
/// underscores stay; the second of two underscores becomes `__05F`; any other character
/// `c` becomes `__0` + two hex digits (`bus$data` -> `bus__024data`).
pub(crate) fn verilator_encode(name: &str) -> String {
    let bytes = name.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let keep = if i == 0 {
            c.is_ascii_alphabetic()
        } else {
            c.is_ascii_alphanumeric()
        };
        if keep {
            out.push(c as char);
        } else if c == b'_' && bytes.get(i + 1) == Some(&b'_') {
            out.push_str("___05F");
            i += 1;
        } else if c == b'_' {
            out.push('_');
        } else {
            out.push_str(&format!("__0{c:02X}"));
        }
        i += 1;
    }
    out
}

/// `V` + the CamelCase of a snake-case top name: `wide_mul_28x21` -> `VWideMul28x21`.
pub(crate) fn struct_name(top: &str) -> String {
    let mut out = String::from("V");
    for part in top.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    out
}

/// The identifier of a port in Rust and C function names: rust-hdl's `$` (interface
/// separator) becomes `_`.
pub(crate) fn port_ident(port: &str) -> String {
    port.trim_start_matches("r#").replace('$', "_")
}

/// `ident` usable as a Rust method name: keywords become raw identifiers.
pub(crate) fn rust_method(ident: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do",
        "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in",
        "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
        "return", "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe",
        "unsized", "use", "virtual", "where", "while", "yield",
    ];
    if KEYWORDS.contains(&ident) {
        format!("r#{ident}")
    } else {
        ident.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_matches_verilator_5006() {
        // Observed in a Verilator 5.006 header: VL_IN8(&a___05Fb,0,0); VL_IN64(&bus__024data,..)
        assert_eq!(verilator_encode("in_qp"), "in_qp");
        assert_eq!(verilator_encode("a__b"), "a___05Fb");
        assert_eq!(verilator_encode("bus$data"), "bus__024data");
        assert_eq!(verilator_encode("clock"), "clock");
    }

    #[test]
    fn struct_names_are_camel_case() {
        assert_eq!(struct_name("wide_mul_28x21"), "VWideMul28x21");
        assert_eq!(struct_name("dcqcn_rp_q1024"), "VDcqcnRpQ1024");
    }

    #[test]
    fn keywords_become_raw() {
        assert_eq!(rust_method("type"), "r#type");
        assert_eq!(rust_method("p"), "p");
        assert_eq!(port_ident("bus$data"), "bus_data");
    }

    #[test]
    #[should_panic(expected = "must match")]
    fn bad_top_names_are_refused() {
        check_top_name("Wide-Mul");
    }
}
