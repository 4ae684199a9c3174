//! One name for the crate's recurring target test: `vector_target` is set
//! where the SIMD kernels have 16-byte (or wider) blocks to run: x86_64,
//! aarch64, and wasm32 built with `simd128`. The kernel modules write
//! `all(vector_target, not(miri))` instead of spelling the three targets
//! out at every use.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vector_target)");
    println!("cargo::rerun-if-changed=build.rs");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let vector = match arch.as_str() {
        "x86_64" | "aarch64" => true,
        "wasm32" => features.split(',').any(|f| f == "simd128"),
        _ => false,
    };
    if vector {
        println!("cargo::rustc-cfg=vector_target");
    }
}
