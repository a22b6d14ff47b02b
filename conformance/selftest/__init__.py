"""Self-tests of the golden suite: does it reject wrong implementations?

`mutants` holds deliberately broken variants of the reference (realistic porting mistakes);
`mutant_adapter` serves one of them through the adapter protocol; `gate` runs the suite against
every mutant and reports which cases kill it; `cli` adds `hrc selftest`.
"""
