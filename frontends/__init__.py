"""Language frontends: parse a source file, find pragma regions, build one Kernel per region,
and rewrite the source with each region replaced by a call into the host glue."""
