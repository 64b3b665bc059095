"""Benchmarks that sit above the parts they measure (vision on the simulator, ...)."""
