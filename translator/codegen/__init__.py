"""Code generation: schedule -> loop tree -> OpenCL C device code; host glue."""
