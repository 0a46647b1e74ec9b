//! A deliberate fault in the generated Verilog, to show that the lock-step tests see the RTL:
//! with `ROCE_CC_RTL_MUTATION="FROM=>TO"` set, [`crate::build_top`] replaces every occurrence
//! of the text `FROM` by `TO` in the Verilog of each top that contains it, before Verilating
//! it. The post-synthesis netlist is synthesised from that Verilog, so it carries the fault
//! too. rust-hdl's own simulation and the golden models are untouched, so a test that
//! compares them with the Verilated model must fail where the fault shows.
//!
//! `ROCE_CC_RTL_MUTATION_TOPS="a,b"` limits the fault to the tops of those names (by default
//! every top that contains `FROM`), so that a demonstration re-Verilates only small tops.
//!
//! The build fails if no top contains `FROM` (a mistyped fault must not pass for a caught
//! one), and prints which tops were changed as cargo warnings. Unset, the variables change
//! nothing. Example (README, "Tests see the RTL"):
//!
//! ```text
//! ROCE_CC_RTL_MUTATION='nmg_or$0$d = nmg$0$d | nmg$1$d=>nmg_or$0$d = nmg$1$d' \
//! ROCE_CC_RTL_MUTATION_TOPS=dcqcn_rp_q16,roce_cc_core_q16 \
//!     cargo test -p roce-cc-sim --test all rp_three_way core_three_way
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};

/// The environment variable that holds the fault, `FROM=>TO`.
pub const MUTATION_ENV: &str = "ROCE_CC_RTL_MUTATION";
/// The environment variable that names the tops the fault may change (comma-separated).
pub const MUTATION_TOPS_ENV: &str = "ROCE_CC_RTL_MUTATION_TOPS";

/// Tops whose Verilog the fault changed in this build script run.
static MUTATED_TOPS: AtomicUsize = AtomicUsize::new(0);

/// The fault `(from, to)` if the variable is set; panics on a malformed value.
fn fault() -> Option<(String, String)> {
    println!("cargo:rerun-if-env-changed={MUTATION_ENV}");
    let value = std::env::var(MUTATION_ENV).ok()?;
    let Some((from, to)) = value.split_once("=>") else {
        panic!(
            "{MUTATION_ENV}={value:?}: expected FROM=>TO (the text to replace and its replacement)"
        );
    };
    assert!(!from.is_empty(), "{MUTATION_ENV}: FROM is empty");
    Some((from.to_string(), to.to_string()))
}

/// `text` (the Verilog of top `name`) with the fault applied, if one is set.
pub(crate) fn apply(name: &str, text: String) -> String {
    let Some((from, to)) = fault() else {
        return text;
    };
    println!("cargo:rerun-if-env-changed={MUTATION_TOPS_ENV}");
    if let Ok(tops) = std::env::var(MUTATION_TOPS_ENV) {
        if !tops.split(',').any(|t| t.trim() == name) {
            return text;
        }
    }
    let hits = text.matches(from.as_str()).count();
    if hits == 0 {
        return text;
    }
    MUTATED_TOPS.fetch_add(1, Ordering::SeqCst);
    println!("cargo:warning={MUTATION_ENV}: {hits} occurrence(s) replaced in top `{name}`");
    text.replace(from.as_str(), &to)
}

/// Panics if a fault is set but no top contained its text. Called by [`crate::build_runtime`],
/// after the last top.
pub(crate) fn check_applied() {
    if let Some((from, _)) = fault() {
        assert!(
            MUTATED_TOPS.load(Ordering::SeqCst) > 0,
            "{MUTATION_ENV}: no top's Verilog (of those {MUTATION_TOPS_ENV} allows) contains \
             {from:?}; nothing was changed"
        );
    }
}
