//! The driver's tests, one test binary (one link instead of one per file): over the
//! `model` BAR and a file-backed BAR (`driver`), and over the UART bridge to the simulated
//! board (`uart`). Run one module with its name as the filter, e.g.
//! `cargo test -p roce-cc-host-driver --test all uart`.

mod driver;
mod uart;
