#!/usr/bin/env python3
"""META.json against the PGXN Meta Spec 1.0.0 (https://pgxn.org/spec/), and
against the rest of the tree.

The spec's rules checked here:
- required keys: name, abstract, version, maintainer, license, provides,
  meta-spec; any other key must be one of the spec's optional keys
  (description, generated_by, tags, no_index, prereqs, release_status,
  resources) or a custom key starting with x_ or X_;
- name: at least two characters, no slash, backslash or control character;
- version and every provides version: semantic versions (x.y.z[-pre]);
- maintainer: a string or a non-empty list of strings;
- license: one of the spec's license names, a list of them, or an object of
  name -> URL;
- provides: extension name -> {file, version required; abstract, docfile
  optional}, and file and docfile exist in the tree;
- meta-spec: {version "1.0.0" required, url optional};
- tags: a list of non-empty strings of at most 255 characters;
- release_status: stable, testing or unstable;
- resources: homepage a URL; bugtracker {web URL, mailto}; repository
  {url URL, web URL, type}: nothing else;
- prereqs: phase (configure, build, runtime, test, develop) -> relationship
  (requires, recommends, suggests, conflicts) -> name -> version range
  ("0", a version, or comma-separated "op version" with op in
  ==, !=, <, <=, >, >=).
And the couplings with the tree:
- version equals bloomsketch.control's default_version, the version in
  src/pg/pg_compat.h's PG_MODULE_MAGIC_EXT and the top heading
  of CHANGELOG.md; while that heading says "unreleased", release_status is
  testing or unstable, and only then may the maintainer or a resource be a
  placeholder (a maintainer naming "placeholder", a URL on the reserved
  .invalid domain); a maintainer's address is never on a reserved domain
  (.example, .invalid, .test, example.com...), which looks real but is not;
- tags name each of the three types' structures;
- the tested PostgreSQL versions (x_postgresql_tested) and the untested
  expected ones (x_postgresql_untested) appear as one sentence, word for
  word, in README.md and debian/control, and the runtime prerequisite's
  lowest version is the lowest tested one;
- debian/control, debian/control.in and every debian/changelog entry name
  the first maintainer, word for word, before the e-mail address Debian
  requires; while that maintainer is a placeholder, the address is on the
  reserved .invalid domain, so that it reaches no one and says so.

Usage: python3 test/harness/meta_spec.py [repository root]
Prints every violation and exits 1 if there is any.
"""
import json
import pathlib
import re
import sys
import urllib.parse

REQUIRED = {"name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"}
OPTIONAL = {"description", "generated_by", "tags", "no_index", "prereqs",
            "release_status", "resources"}
LICENSES = {"agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd",
            "freebsd", "gfdl_1_2", "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1",
            "lgpl_3_0", "mit", "mozilla_1_0", "mozilla_1_1", "openssl", "perl_5",
            "postgresql", "qpl_1_0", "ssleay", "sun", "zlib", "open_source",
            "restricted", "unrestricted", "unknown"}
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+)?$")
RANGE_PART = re.compile(r"^(?:(==|!=|<=|>=|<|>)\s*)?(\S+)$")
PHASES = {"configure", "build", "runtime", "test", "develop"}
RELATIONS = {"requires", "recommends", "suggests", "conflicts"}
STATUSES = {"stable", "testing", "unstable"}
# The structure behind each type, as a tag must name it.
TYPE_TAGS = {"bloomfilter": "bloom filter", "cmsketch": "count-min sketch",
             "topksketch": "heavy hitters"}


class Checker:
    def __init__(self):
        self.problems = []

    def require(self, condition, message):
        if not condition:
            self.problems.append(message)
        return condition


def is_url(value):
    if not isinstance(value, str):
        return False
    parts = urllib.parse.urlparse(value)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def is_placeholder_url(value):
    host = urllib.parse.urlparse(value).hostname or ""
    return host == "invalid" or host.endswith(".invalid")


def valid_range(text):
    if text == "0":
        return True
    parts = [p.strip() for p in str(text).split(",")]
    for part in parts:
        match = RANGE_PART.match(part)
        if not match or not SEMVER.match(match.group(2)):
            return False
    return True


def check_spec(meta, c):
    """The PGXN Meta Spec's own rules."""
    for key in REQUIRED - meta.keys():
        c.require(False, f"required key {key!r} is missing")
    for key in meta.keys() - REQUIRED - OPTIONAL:
        c.require(key.startswith(("x_", "X_")), f"unknown key {key!r} (custom keys start with x_)")
    name = meta.get("name", "")
    c.require(isinstance(name, str) and len(name) >= 2 and not re.search(r"[/\\\x00-\x1f]", name),
              f"name {name!r}: at least two characters, no slash, backslash or control character")
    c.require(isinstance(meta.get("abstract"), str) and meta.get("abstract"), "abstract: a non-empty string")
    c.require(isinstance(meta.get("version"), str) and SEMVER.match(meta.get("version", "")),
              f"version {meta.get('version')!r} is not a semantic version")
    maintainer = meta.get("maintainer")
    c.require(isinstance(maintainer, str) and maintainer or
              isinstance(maintainer, list) and maintainer and all(isinstance(m, str) and m for m in maintainer),
              "maintainer: a string or a non-empty list of strings")
    lic = meta.get("license")
    c.require(isinstance(lic, str) and lic in LICENSES or
              isinstance(lic, list) and lic and all(l in LICENSES for l in lic) or
              isinstance(lic, dict) and lic and all(is_url(u) for u in lic.values()),
              f"license {lic!r}: a license name of the spec, a list of them, or name -> URL")
    provides = meta.get("provides")
    if c.require(isinstance(provides, dict) and provides, "provides: a non-empty object"):
        for ext, entry in provides.items():
            if not c.require(isinstance(entry, dict), f"provides.{ext}: an object"):
                continue
            for key in ("file", "version"):
                c.require(key in entry, f"provides.{ext}: {key} is required")
            for key in entry.keys() - {"file", "version", "abstract", "docfile"}:
                c.require(key.startswith(("x_", "X_")), f"provides.{ext}: unknown key {key!r}")
            c.require(SEMVER.match(str(entry.get("version", ""))),
                      f"provides.{ext}.version {entry.get('version')!r} is not a semantic version")
    spec = meta.get("meta-spec")
    if c.require(isinstance(spec, dict), "meta-spec: an object"):
        c.require(spec.get("version") == "1.0.0", "meta-spec.version must be 1.0.0")
        c.require("url" not in spec or is_url(spec["url"]), "meta-spec.url: a URL")
    tags = meta.get("tags", [])
    c.require(isinstance(tags, list) and all(isinstance(t, str) and 0 < len(t) <= 255 for t in tags),
              "tags: a list of strings of 1 to 255 characters")
    if "release_status" in meta:
        c.require(meta["release_status"] in STATUSES,
                  f"release_status {meta['release_status']!r}: one of {sorted(STATUSES)}")
    resources = meta.get("resources", {})
    if c.require(isinstance(resources, dict), "resources: an object"):
        for key in resources.keys() - {"homepage", "bugtracker", "repository"}:
            c.require(key.startswith(("x_", "X_")), f"resources: unknown key {key!r}")
        if "homepage" in resources:
            c.require(is_url(resources["homepage"]), "resources.homepage: a URL")
        tracker = resources.get("bugtracker", {})
        c.require(isinstance(tracker, dict) and tracker.keys() <= {"web", "mailto"} and
                  ("web" not in tracker or is_url(tracker["web"])),
                  "resources.bugtracker: {web: URL, mailto: address}")
        repo = resources.get("repository", {})
        c.require(isinstance(repo, dict) and repo.keys() <= {"url", "web", "type"} and
                  all(is_url(repo[k]) or k == "url" and str(repo[k]).startswith("git://")
                      for k in ("url", "web") if k in repo) and
                  ("url" not in repo or "type" in repo),
                  "resources.repository: {url: URL, web: URL, type} (type with url)")
    prereqs = meta.get("prereqs", {})
    if c.require(isinstance(prereqs, dict), "prereqs: an object"):
        for phase, relations in prereqs.items():
            c.require(phase in PHASES, f"prereqs: unknown phase {phase!r}")
            if not c.require(isinstance(relations, dict), f"prereqs.{phase}: an object"):
                continue
            for relation, names in relations.items():
                c.require(relation in RELATIONS, f"prereqs.{phase}: unknown relationship {relation!r}")
                if c.require(isinstance(names, dict), f"prereqs.{phase}.{relation}: an object"):
                    for prereq, version in names.items():
                        c.require(valid_range(version),
                                  f"prereqs.{phase}.{relation}.{prereq}: bad version range {version!r}")


def tested_sentence(meta):
    """The one sentence that states the supported versions, built from META."""
    tested = meta.get("x_postgresql_tested", [])
    untested = meta.get("x_postgresql_untested", {})
    if not tested:
        return None
    listed = ", ".join(tested[:-1]) + " and " + tested[-1] if len(tested) > 1 else tested[0]
    sentence = f"PostgreSQL {listed} tested"
    for version, reason in sorted(untested.items()):
        sentence += f"; {version} expected to work but not tested here, as {reason}"
    return sentence


def words(text):
    """Text with comment leaders and line breaks folded to single spaces."""
    return " ".join(re.sub(r"^\s*[#*]?\s*", "", line) for line in text.splitlines()).split()


def check_tree(meta, root, c):
    """The couplings of META.json with the rest of the tree."""
    version = meta.get("version")
    control = (root / "bloomsketch.control").read_text(encoding="utf-8")
    default = re.search(r"^default_version\s*=\s*'([^']*)'", control, re.MULTILINE)
    c.require(default and default.group(1) == version,
              f"bloomsketch.control default_version {default and default.group(1)!r} != META version {version!r}")
    magic = re.search(r'PG_MODULE_MAGIC_EXT\(.*\.version = "([^"]*)"',
                      (root / "src/pg/pg_compat.h").read_text(encoding="utf-8"))
    c.require(magic and magic.group(1) == version,
              f"src/pg/pg_compat.h's PG_MODULE_MAGIC_EXT version {magic and magic.group(1)!r} "
              f"!= META version {version!r}")
    for ext, entry in meta.get("provides", {}).items():
        for key in ("file", "docfile"):
            if key in entry:
                c.require((root / entry[key]).is_file(), f"provides.{ext}.{key} {entry[key]!r} is not a file")
    heading = re.search(r"^## (.*)$", (root / "CHANGELOG.md").read_text(encoding="utf-8"), re.MULTILINE)
    heading = heading.group(1) if heading else ""
    c.require(heading.split()[:1] == [version],
              f"CHANGELOG.md's top heading {heading!r} is not about version {version!r}")
    unreleased = "unreleased" in heading.lower()
    status = meta.get("release_status", "stable")
    if unreleased:
        c.require(status in ("testing", "unstable"),
                  f"CHANGELOG says {heading!r} but release_status is {status!r} (testing or unstable)")
    placeholders = [m for m in (meta.get("maintainer") if isinstance(meta.get("maintainer"), list)
                                else [meta.get("maintainer", "")]) if "placeholder" in str(m).lower()]
    resources = meta.get("resources", {})
    urls = [resources.get("homepage")] + list(resources.get("bugtracker", {}).values()) + \
        [resources.get("repository", {}).get(k) for k in ("url", "web")]
    placeholders += [u for u in urls if isinstance(u, str) and is_placeholder_url(u)]
    c.require(not placeholders or status != "stable",
              f"a stable release with placeholders: {placeholders}")
    for url in urls:
        c.require(url is None or not isinstance(url, str) or is_placeholder_url(url) or "placeholder" not in url,
                  f"resource {url!r} says placeholder but is not on the reserved .invalid domain")
    for person in (meta.get("maintainer") if isinstance(meta.get("maintainer"), list) else [meta.get("maintainer")]):
        address = re.search(r"<([^>]*)>", str(person))
        c.require(not address or "placeholder" not in str(person).lower(),
                  f"maintainer {person!r}: a placeholder must not carry an address")
        domain = address.group(1).rpartition("@")[2].lower() if address else ""
        c.require(not re.search(r"(^|\.)(example|invalid|test|localhost)$|(^|\.)example\.(com|net|org)$", domain),
                  f"maintainer {person!r}: an address on a reserved domain looks real but reaches "
                  "no one; write a placeholder that says so instead")
    tags = [t.lower() for t in meta.get("tags", [])]
    for typ, tag in TYPE_TAGS.items():
        c.require(tag in tags, f"tags: none names {typ} ({tag!r})")
    sentence = tested_sentence(meta)
    if c.require(sentence, "x_postgresql_tested: the list of tested PostgreSQL major versions"):
        said = " ".join(sentence.split())
        for name in ("README.md", "debian/control", "debian/control.in"):
            path = root / name
            if path.is_file():
                c.require(said in " ".join(words(path.read_text(encoding="utf-8"))),
                          f"{name} does not say, word for word: {said}")
        lowest = min(int(v) for v in meta["x_postgresql_tested"])
        requires = meta.get("prereqs", {}).get("runtime", {}).get("requires", {}).get("PostgreSQL", "")
        c.require(re.fullmatch(rf"(>=\s*)?{lowest}\.0\.0", str(requires)),
                  f"prereqs.runtime.requires.PostgreSQL {requires!r} is not the lowest tested version {lowest}")
    check_debian_maintainer(meta, root, c)


def check_debian_maintainer(meta, root, c):
    """The Debian files' maintainer: META.json's first, with an address."""
    maintainers = meta.get("maintainer")
    name = maintainers[0] if isinstance(maintainers, list) and maintainers else maintainers
    if not isinstance(name, str) or not name:
        return
    said = []
    for control in ("debian/control", "debian/control.in"):
        path = root / control
        if path.is_file():
            said += [(control, m) for m in re.findall(r"^Maintainer:\s*(.*)$",
                                                      path.read_text(encoding="utf-8"), re.MULTILINE)]
    changelog = root / "debian/changelog"
    if changelog.is_file():
        said += [("debian/changelog", m) for m in re.findall(r"^ -- (.*?>)  ",
                                                             changelog.read_text(encoding="utf-8"), re.MULTILINE)]
    for where, person in said:
        found = re.fullmatch(r"(.*?)\s*<([^<>@\s]+)@([^<>@\s]+)>", person)
        if not c.require(found, f"{where}: maintainer {person!r} is not 'name <address>'"):
            continue
        c.require(found.group(1) == name,
                  f"{where}: maintainer {found.group(1)!r} is not META.json's {name!r}")
        domain = found.group(3).lower()
        c.require("placeholder" not in name.lower() or domain == "invalid" or domain.endswith(".invalid"),
                  f"{where}: the placeholder maintainer's address {found.group(2)}@{domain} "
                  "is not on the reserved .invalid domain")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parents[2])
    c = Checker()
    try:
        meta = json.loads((root / "META.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"META.json: {error}")
        return 1
    if not isinstance(meta, dict):
        print("META.json: not an object")
        return 1
    check_spec(meta, c)
    check_tree(meta, root, c)
    for problem in c.problems:
        print(problem)
    print(f"META.json {meta.get('version')} ({meta.get('release_status', 'stable')}): "
          f"{len(c.problems)} problem(s)")
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main())
