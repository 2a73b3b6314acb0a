"""FORALL in a region: each assignment a parallel assignment over the index space.

``forall (i = 1:n, j = 1:n, i /= j) b(i, j) = a(j, i)`` assigns every element whose mask
holds, all right-hand sides evaluated before any assignment.  Each assignment of the
statement or construct becomes one statement over fresh inames of its own (one domain per
index, the mask a predicate), the construct's assignments one after the other, as Fortran
runs them.  Running the instances of one assignment element by element equals Fortran's
"right-hand side first" only where no instance reads an element another one writes: isl
decides it as for array assignments, and a FORALL that reads what it writes at another
index (``forall (i = 2:n) a(i) = a(i - 1)``) is refused with what to write.  The mask is
evaluated for the whole construct first: with one assignment it may read the elements that
instance assigns (``forall (i = 1:n, a(i) > 0) a(i) = -a(i)``: isl checks it as a read), in a
construct of several it must not read what the construct assigns.
The index names are the construct's own: the procedure's variables of those names keep
their values.
"""

from __future__ import annotations

from typing import Any

from frontends.fortran.source import children, class_name, is_comment, node_lines, walk
from translator.diagnostics import UnsupportedConstructError

#: What to write instead of a FORALL whose instances read what others write.
_TEMPORARY = ("FORALL evaluates every right-hand side before it assigns; copy what it reads "
              "into a temporary array first (or write a DO loop if its order is what you "
              "mean)")


class ForallSupport:
    """The region builder's FORALL (`RegionBuilder` derives from it)."""

    def visit_Forall_Stmt(self, node: Any) -> None:
        header, assignment = node.items
        self._forall(header, [assignment], node)

    def visit_Forall_Construct(self, node: Any) -> None:
        kids = [k for k in children(node) if not is_comment(k)]
        header = next(c for c in children(kids[0]) if class_name(c) == "Forall_Header")
        self._forall(header, [k for k in kids[1:] if class_name(k) != "End_Forall_Stmt"],
                     node)

    def _forall(self, header: Any, body: list[Any], node: Any) -> None:
        specs = list(children(header.items[0]))
        mask = header.items[1] if len(header.items) > 1 else None
        written = self.assigned(node)
        read = {str(n).lower() for n in walk(mask) if class_name(n) == "Name"} \
            if mask is not None else set()
        if read & written and len(body) > 1:
            name = sorted(read & written)[0]
            raise UnsupportedConstructError(
                f"FORALL mask reads {name!r}, which the FORALL assigns; compute the mask into "
                "a logical array before it", self.span(name))
        for stmt in body:
            self.line = (node_lines(stmt) or (self.line, 0))[0]
            if class_name(stmt) != "Assignment_Stmt":
                raise UnsupportedConstructError(
                    f"{class_name(stmt)} inside FORALL is not supported inside a kernel region "
                    "(assignments are)", self.span())
            self._forall_assignment(specs, mask, stmt)

    def _forall_assignment(self, specs: list[Any], mask: Any, stmt: Any) -> None:
        """One assignment over the FORALL's index space."""
        frames, preds = len(self.frames), len(self.predicates)
        open_loops = len(self._open_loops)
        try:
            for spec in specs:
                var, lo, hi, step = spec.items
                self._enter(str(var).lower(), lo, hi, step, concurrent=True)
            inames = tuple(f.iname for f in self.frames[frames:])
            first = len(self.statements)
            if mask is not None:
                self.predicates.append(self.condition(mask, set()))
            if self.expr.section_rank(stmt.items[0]):
                raise UnsupportedConstructError(
                    "an array section assigned inside FORALL is not supported inside a kernel "
                    "region; add its index to the FORALL header", self.span())
            self._assign(stmt, [])
            self._forall_overlap(first, inames)
        finally:
            del self.frames[frames:]
            del self.predicates[preds:]
            del self._open_loops[open_loops:]

    def _forall_overlap(self, first: int, inames: tuple[str, ...]) -> None:
        """Refuse an instance reading an element that another instance writes."""
        target = self.statements[-1].assignee
        for s in self.statements[first:]:
            for e in (s.expression, *s.predicates):
                try:
                    self._check_overlap(target, e, inames)
                except UnsupportedConstructError:
                    name = target.aggregate.name
                    raise UnsupportedConstructError(
                        f"FORALL assignment to {name!r} reads elements of {name!r} that other "
                        f"index values assign; {_TEMPORARY}", self.span(name)) from None


__all__ = ["ForallSupport"]
