"""The translator as a build step: reports, warning policy, dependency files, the per-file job
behind the CLI (and its process pool), compiler wrappers, ``translate check`` and
``translate devices``.

Everything here sits on top of `translator.driver`; nothing below the driver imports it.
"""
