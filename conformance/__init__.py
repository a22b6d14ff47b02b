"""The hrc conformance kit: golden cases, adapter protocol, runner, reports."""
