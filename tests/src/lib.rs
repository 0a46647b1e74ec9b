//! Workspace-level tests of roce-cc (the tests themselves live in `tests/tests/`) and the
//! reference models they share: [`ideal`], dcqcn.md's reaction point in real arithmetic.

pub mod ideal;
