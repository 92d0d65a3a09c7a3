"""Collect YAML scenario test files (rules/**/tests/*.yaml, tests/**/scenarios/*.yaml) as pytest items."""
from __future__ import annotations

import pytest

from interpreter.rulefiles import is_scenario_file
from interpreter.scenario import ScenarioFile


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".yaml" and is_scenario_file(file_path):
        return ScenarioYaml.from_parent(parent, path=file_path)
    return None


class ScenarioYaml(pytest.File):
    def collect(self):
        try:
            sf = ScenarioFile(self.path)
        except Exception as exc:  # noqa: BLE001 - reported as one failing item
            yield BrokenScenarioFile.from_parent(self, name="load", error=exc)
            return
        for name, spec, pos in sf.scenarios():
            yield ScenarioItem.from_parent(self, name=name, sf=sf, spec=spec, pos=pos)


class ScenarioItem(pytest.Item):
    def __init__(self, *, sf, spec, pos, **kwargs):
        super().__init__(**kwargs)
        self.sf, self.spec, self.pos = sf, spec, pos

    def runtest(self):
        result = self.sf.run(self.spec, self.pos)
        if not result.passed:
            raise ScenarioFailed(result.line())

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.pos.line, f"scenario: {self.name}"


class BrokenScenarioFile(pytest.Item):
    def __init__(self, *, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self):
        raise ScenarioFailed(f"cannot load scenario file: {self.error}")

    def repr_failure(self, excinfo):
        return str(excinfo.value)


class ScenarioFailed(Exception):
    pass
