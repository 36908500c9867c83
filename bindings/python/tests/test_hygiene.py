"""Every public function, class, method and property has a docstring and type hints."""

from __future__ import annotations

import enum
import inspect
import unittest

import llmmetrics


def public_members(cls):
    for name, member in vars(cls).items():
        if name.startswith("_") and name not in ("__init__",):
            continue
        yield name, member


class Hygiene(unittest.TestCase):
    def check_function(self, where: str, fn) -> None:
        self.assertTrue(inspect.getdoc(fn), "%s has no docstring" % where)
        sig = inspect.signature(fn)
        for p in sig.parameters.values():
            if p.name in ("self", "cls"):
                continue
            self.assertIsNot(p.annotation, inspect.Parameter.empty,
                             "%s: parameter %s has no type hint" % (where, p.name))
        self.assertIsNot(sig.return_annotation, inspect.Signature.empty,
                         "%s has no return type hint" % where)

    def test_everything_exported_is_documented_and_typed(self) -> None:
        checked = 0
        for name in llmmetrics.__all__:
            obj = getattr(llmmetrics, name)
            if inspect.isfunction(obj):
                self.check_function(name, obj)
                checked += 1
            elif inspect.isclass(obj):
                self.assertTrue(inspect.getdoc(obj), "%s has no docstring" % name)
                if issubclass(obj, (enum.Enum, tuple)):
                    continue  # IntEnums and NamedTuples: members documented in the class
                for mname, member in public_members(obj):
                    where = "%s.%s" % (name, mname)
                    if isinstance(member, property):
                        self.check_function(where, member.fget)
                    elif isinstance(member, (staticmethod, classmethod)):
                        if mname != "_c_free":
                            self.check_function(where, member.__func__)
                    elif inspect.isfunction(member):
                        if mname == "__init__":
                            self.assertTrue(inspect.getdoc(obj), where)
                            continue
                        self.check_function(where, member)
                    checked += 1
        self.assertGreater(checked, 200)  # guards against the walk finding nothing


if __name__ == "__main__":
    unittest.main()
