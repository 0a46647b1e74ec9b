//! The workspace-level tests, one test binary (one link instead of one per file): the
//! golden reaction point against the ideal one (`golden_vs_ideal`), the static gates on
//! every shipped top (`rtl_gates`: lint, yosys, the synthesis shell) and the slack report
//! script (`slack_groups`). Run one module with its name as the filter, e.g.
//! `cargo test -p roce-cc-tests --test all rtl_gates`.

mod golden_vs_ideal;
mod rtl_gates;
mod slack_groups;
