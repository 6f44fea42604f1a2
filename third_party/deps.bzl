"""The one call a workspace makes to build sstfilter offline, its own or a consumer's.

    local_repository(name = "sstfilter", path = "...")  # or http_archive
    load("@sstfilter//third_party:deps.bzl", "sstfilter_deps")
    sstfilter_deps()

It declares, unless the workspace already has them:
  - rules_cc, rules_java, remote_coverage_tools: stand-ins for the three repositories
    Bazel 4.2.3's own tools load and would otherwise download (rules forwarded to
    native.* and placeholder targets, copied from third_party/ of this tree);
  - every library sstfilter links, from Debian packages (repositories.bzl).
Call it before anything else in WORKSPACE that loads rules_cc or rules_java.
"""

load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")
load("//third_party:repositories.bzl", "sstfilter_repositories")

def _in_tree_repository_impl(ctx):
    # A label in a real package finds this tree on disk, whether sstfilter is the main
    # workspace or an external repository.
    third_party = ctx.path(Label("//third_party:BUILD.bazel")).dirname
    source = third_party.get_child(ctx.attr.directory)
    if not source.exists:
        fail("%s is missing from sstfilter's tree" % source)
    result = ctx.execute(["cp", "-R", str(source) + "/.", "."])
    if result.return_code != 0:
        fail("copying %s: %s" % (source, result.stderr))

_in_tree_repository = repository_rule(
    implementation = _in_tree_repository_impl,
    attrs = {"directory": attr.string(mandatory = True)},
    local = True,
)

def sstfilter_deps():
    for name in ["rules_cc", "rules_java", "remote_coverage_tools"]:
        maybe(_in_tree_repository, name = name, directory = name)
    sstfilter_repositories()
