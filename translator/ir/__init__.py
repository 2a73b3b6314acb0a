"""The statement/domain IR (docs/kernel-language.md)."""

from translator.ir.data import (AddressSpace, ArrayArg, DimTag, FixedStrideTag, NestingTag,
                                SeparateTag, TemporaryVariable, ValueArg, VectorTag,
                                parse_dim_tags)
from translator.ir.expr import LinearSubscript, Reduction, TaggedVariable, TypeCast
from translator.ir.kernel import Kernel, Options, SubstitutionRule
from translator.ir.statements import (Assignment, BarrierInstruction, CallInstruction,
                                      NoOpInstruction, Statement)
from translator.ir.tags import (ForceSequentialTag, GroupTag, IlpSeqTag, IlpUnrollTag,
                                InameTag, LocalAutoTag, LocalTag, UnrollTag, VectorizeTag,
                                parse_tag)
from translator.ir.util import FrozenDict

__all__ = [
    "AddressSpace", "ArrayArg", "Assignment", "BarrierInstruction", "CallInstruction",
    "DimTag", "FixedStrideTag", "ForceSequentialTag", "FrozenDict", "GroupTag", "IlpSeqTag",
    "IlpUnrollTag", "InameTag", "Kernel", "LinearSubscript", "LocalAutoTag", "LocalTag",
    "NestingTag", "NoOpInstruction", "Options", "Reduction", "SeparateTag", "Statement",
    "SubstitutionRule", "TaggedVariable", "TemporaryVariable", "TypeCast", "UnrollTag",
    "ValueArg", "VectorTag", "VectorizeTag", "parse_dim_tags", "parse_tag",
]
