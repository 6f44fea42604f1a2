"""Maps upstream Bazel repository names onto libraries installed from Debian packages.

Projects that fetch Abseil, GoogleTest and friends from source name them
`@com_google_absl//absl/status`, `@com_google_googletest//:gtest_main`, and so on. This
repository rule creates repositories with those names whose targets are header-less
`cc_library` rules carrying only link flags: the headers come from the system include
directory. Nothing is downloaded. A project that builds the real upstream repositories can
depend on sstfilter without edits, because the labels are the same.

Each library is given as "package:target" -> link flags, where the flags are either literal
(`-lgtest -pthread`) or `pkg-config:NAME ...`, resolved when the repository is created. A
header-only library has no flags: the empty string.
"""

def _link_flags(ctx, spec):
    if not spec.startswith("pkg-config:"):
        return [flag for flag in spec.split(" ") if flag]
    modules = spec[len("pkg-config:"):].split(" ")
    result = ctx.execute(["pkg-config", "--libs"] + modules)
    if result.return_code != 0:
        fail("pkg-config could not find %s (%s); run ./setup.sh" %
             (" ".join(modules), result.stderr.strip()))
    return result.stdout.strip().split(" ")

def _system_repository_impl(ctx):
    for header in ctx.attr.required_headers:
        if not ctx.path("/usr/include/" + header).exists:
            fail("/usr/include/%s is missing: run ./setup.sh to install %s" %
                 (header, ctx.attr.debian_package))
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)

    by_package = {}
    for label, spec in ctx.attr.libraries.items():
        package, target = label.split(":")
        by_package.setdefault(package, []).append((target, _link_flags(ctx, spec)))

    for package, targets in by_package.items():
        lines = [
            "# Generated from Debian's %s: link flags only, headers are in /usr/include." %
            ctx.attr.debian_package,
            'package(default_visibility = ["//visibility:public"])',
            "",
        ]
        for target, flags in targets:
            lines.append("cc_library(")
            lines.append('    name = "%s",' % target)
            lines.append("    linkopts = %s," % repr(flags))
            lines.append(")")
            lines.append("")
        path = (package + "/BUILD.bazel") if package else "BUILD.bazel"
        ctx.file(path, "\n".join(lines))

system_repository = repository_rule(
    implementation = _system_repository_impl,
    attrs = {
        "debian_package": attr.string(mandatory = True),
        "libraries": attr.string_dict(mandatory = True),
        "required_headers": attr.string_list(),
    },
    local = True,
)
