"""Running a suite against an adapter: the runner, its result types (`results`, the bottom of this
package), `--require`, not-applicable reasons, build steps.
"""
