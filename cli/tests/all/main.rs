//! The `roce-cc` command's tests, one test binary (one link instead of one per file): the
//! command as a user runs it (`cli`), the README's main command end to end
//! (`demo_script`), and `roce-cc synth` (`synth`; its full flows only with
//! `ROCE_CC_SYNTH=1`). Run one module with its name as the filter, e.g.
//! `cargo test -p roce-cc --test all synth`.

mod cli;
mod demo_script;
mod synth;
