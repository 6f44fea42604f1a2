#include "tests/testing/factory_scan.h"

#include <cctype>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace sstfilter {
namespace test {
namespace {

// The type a factory hands out, by its own name.
constexpr absl::string_view kPolicyType = "FilterPolicy";
// The namespace whose FilterPolicy is ours.
constexpr absl::string_view kOurNamespace = "sstfilter";
// Pointers that hand ownership of what they point to to the caller.
constexpr absl::string_view kOwningPointers[] = {"unique_ptr", "shared_ptr"};
// A value or an error: it owns what its value owns.
constexpr absl::string_view kStatusWrapper = "StatusOr";

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `text` without comments, string and character literals (each replaced by a
// space, so that no brace or parenthesis inside one is read as code) and
// preprocessor lines, continuation lines included.
std::string CodeOnly(absl::string_view text) {
  std::string code;
  size_t i = 0;
  bool line_start = true;
  while (i < text.size()) {
    const char c = text[i];
    if (line_start && c == '#') {
      // A directive runs to the first newline not escaped by a backslash.
      while (i < text.size() &&
             !(text[i] == '\n' && (i == 0 || text[i - 1] != '\\')))
        ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const size_t end = text.find("*/", i + 2);
      i = end == absl::string_view::npos ? text.size() : end + 2;
      code += ' ';
      continue;
    }
    if (c == '"' || c == '\'') {
      ++i;
      while (i < text.size() && text[i] != c) i += text[i] == '\\' ? 2 : 1;
      ++i;
      code += ' ';
      continue;
    }
    if (c == '\n') {
      line_start = true;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      line_start = false;
    }
    code += c;
    ++i;
  }
  return code;
}

bool HasWord(absl::string_view text, absl::string_view word);

// One piece of code between two of ';', '{' and '}': at most one
// declaration's head.
struct Statement {
  std::string text;
  // Outside every class, function and initializer body: only namespaces (and
  // extern "C" blocks) enclose it.
  bool at_namespace_scope;
};

// The code split into statements, each knowing its scope.
std::vector<Statement> Statements(const std::string& code) {
  std::vector<Statement> statements;
  // One entry per open brace: whether it opened a namespace.
  std::vector<bool> scopes;
  const auto at_namespace_scope = [&scopes] {
    for (const bool is_namespace : scopes) {
      if (!is_namespace) return false;
    }
    return true;
  };
  std::string current;
  for (const char c : code) {
    if (c == ';' || c == '{' || c == '}') {
      statements.push_back({current, at_namespace_scope()});
      if (c == '{') {
        scopes.push_back(HasWord(current, "namespace") ||
                         HasWord(current, "extern"));
      } else if (c == '}' && !scopes.empty()) {
        scopes.pop_back();
      }
      current.clear();
    } else {
      current += c == '\n' || c == '\t' ? ' ' : c;
    }
  }
  statements.push_back({current, at_namespace_scope()});
  return statements;
}

// Whether `text` holds the whole word `word` at `pos`.
bool WordAt(absl::string_view text, size_t pos, absl::string_view word) {
  return text.substr(pos, word.size()) == word &&
         (pos == 0 || !IsWordChar(text[pos - 1])) &&
         (pos + word.size() == text.size() ||
          !IsWordChar(text[pos + word.size()]));
}

// Whether `text` holds `word` as a whole word.
bool HasWord(absl::string_view text, absl::string_view word) {
  for (size_t pos = text.find(word); pos != absl::string_view::npos;
       pos = text.find(word, pos + 1)) {
    if (WordAt(text, pos, word)) return true;
  }
  return false;
}

// `type` without surrounding spaces and cv-qualifiers.
absl::string_view Unqualified(absl::string_view type) {
  for (bool stripped = true; stripped;) {
    type = absl::StripAsciiWhitespace(type);
    stripped = absl::ConsumePrefix(&type, "const ") ||
               absl::ConsumePrefix(&type, "volatile ") ||
               absl::ConsumePrefix(&type, "typename ") ||
               absl::ConsumeSuffix(&type, " const") ||
               absl::ConsumeSuffix(&type, " volatile");
  }
  return type;
}

// A type's template name with its namespace qualifier ("std::unique_ptr",
// "FilterPolicy") and its first template argument ("" when it has none).
// False when the type is not a plain name with optional template arguments
// (a pointer, a reference, a function type).
bool SplitTemplate(absl::string_view type, absl::string_view* name,
                   absl::string_view* first_argument) {
  type = Unqualified(type);
  const size_t open = type.find('<');
  *name = absl::StripAsciiWhitespace(type.substr(0, open));
  *first_argument = "";
  for (const char c : *name) {
    if (!IsWordChar(c) && c != ':' && c != ' ') return false;
  }
  if (name->empty()) return false;
  if (open == absl::string_view::npos) return true;
  if (type.back() != '>') return false;  // a pointer, reference or function
  int depth = 0;
  for (size_t i = open; i < type.size(); ++i) {
    if (type[i] == '<') ++depth;
    if (type[i] == '>') --depth;
    if ((type[i] == ',' && depth == 1) || depth == 0) {
      *first_argument = type.substr(open + 1, i - open - 1);
      return depth == 0 ? i + 1 == type.size() : true;
    }
  }
  return false;
}

// `name`'s last component and its qualifier ("sstfilter::FilterPolicy" is
// "FilterPolicy" of "sstfilter"; "::x::T" is "T" of "x").
void SplitQualifier(absl::string_view name, absl::string_view* qualifier,
                    absl::string_view* last) {
  const size_t colons = name.rfind("::");
  if (colons == absl::string_view::npos) {
    *qualifier = "";
    *last = name;
    return;
  }
  *last = name.substr(colons + 2);
  absl::string_view q = name.substr(0, colons);
  absl::ConsumePrefix(&q, "::");
  *qualifier = q;
}

// What the scan knows of a header's types so far.
struct PolicyTypes {
  // Names of our policy type: FilterPolicy and its aliases.
  std::set<std::string> policy_names{std::string(kPolicyType)};
  // Aliases of types that own one of our policies.
  std::set<std::string> owning_aliases;

  // Whether `type` is our policy type: one of its names, unqualified or
  // qualified by our namespace.
  bool IsPolicy(absl::string_view type) const {
    absl::string_view name, argument, qualifier, last;
    if (!SplitTemplate(type, &name, &argument) || !argument.empty())
      return false;
    SplitQualifier(name, &qualifier, &last);
    return (qualifier.empty() || qualifier == kOurNamespace) &&
           policy_names.count(std::string(last)) > 0;
  }

  // Whether `type` owns one of our policies: an owning wrapper of it (of an
  // owning type, for StatusOr) or an alias of such a type.
  bool Owns(absl::string_view type) const {
    absl::string_view name, argument, qualifier, last;
    if (!SplitTemplate(type, &name, &argument)) return false;
    SplitQualifier(name, &qualifier, &last);
    if (argument.empty()) return owning_aliases.count(std::string(last)) > 0;
    if (last == kStatusWrapper) return Owns(argument);
    for (absl::string_view pointer : kOwningPointers) {
      if (last == pointer) return IsPolicy(argument);
    }
    return false;
  }
};

// An alias declaration's name and the type it stands for, when `statement`
// is one ("using A = T" or "typedef T A").
bool ParseAlias(absl::string_view statement, std::string* name,
                std::string* type) {
  absl::string_view s = absl::StripAsciiWhitespace(statement);
  if (absl::ConsumePrefix(&s, "typedef ")) {
    s = absl::StripAsciiWhitespace(s);
    size_t end = s.size();
    size_t start = end;
    while (start > 0 && IsWordChar(s[start - 1])) --start;
    if (start == end || start == 0) return false;
    *name = std::string(s.substr(start));
    *type = std::string(s.substr(0, start));
    return true;
  }
  // A template alias: "template <...> using A = T".
  if (absl::StartsWith(s, "template")) {
    const size_t using_pos = s.find("using ");
    if (using_pos == absl::string_view::npos) return false;
    s = s.substr(using_pos);
  }
  if (!absl::ConsumePrefix(&s, "using ")) return false;
  const size_t equals = s.find('=');
  if (equals == absl::string_view::npos) return false;  // a using-declaration
  *name = std::string(absl::StripAsciiWhitespace(s.substr(0, equals)));
  *type = std::string(s.substr(equals + 1));
  for (const char c : *name) {
    if (!IsWordChar(c)) return false;
  }
  return !name->empty();
}

PolicyTypes TypesOf(const std::vector<Statement>& statements,
                    const std::set<std::string>& known_aliases) {
  PolicyTypes types;
  types.owning_aliases = known_aliases;
  // Until nothing new is found: an alias may stand for a later one's type.
  for (bool grew = true; grew;) {
    grew = false;
    for (const Statement& statement : statements) {
      std::string name, type;
      if (!ParseAlias(statement.text, &name, &type)) continue;
      if (types.Owns(type)) {
        grew = types.owning_aliases.insert(name).second || grew;
      } else if (types.IsPolicy(type)) {
        grew = types.policy_names.insert(name).second || grew;
      }
    }
  }
  return types;
}

// Specifiers before a declaration's return type, which are not part of it.
constexpr absl::string_view kSpecifiers[] = {
    "inline", "static",   "virtual", "extern",   "constexpr",
    "friend", "explicit", "public:", "private:", "protected:"};

// Whether `word` is spelled as a macro: capitals, digits and underscores.
bool IsMacroName(absl::string_view word) {
  bool has_letter = false;
  for (const char c : word) {
    if (std::islower(static_cast<unsigned char>(c)) || !(IsWordChar(c)))
      return false;
    has_letter = has_letter || std::isupper(static_cast<unsigned char>(c));
  }
  return has_letter && word.size() > 1;
}

// A declaration's head without what precedes its return type: a template
// head, attributes, specifiers and attribute macros (ABSL_MUST_USE_RESULT).
absl::string_view ReturnTypeOf(absl::string_view head) {
  for (bool stripped = true; stripped;) {
    head = absl::StripAsciiWhitespace(head);
    stripped = false;
    if (absl::StartsWith(head, "template")) {
      int depth = 0;
      for (size_t i = head.find('<'); i < head.size(); ++i) {
        if (head[i] == '<') ++depth;
        if (head[i] == '>' && --depth == 0) {
          head.remove_prefix(i + 1);
          stripped = true;
          break;
        }
      }
    } else if (absl::StartsWith(head, "[[")) {
      const size_t end = head.find("]]");
      if (end == absl::string_view::npos) return head;
      head.remove_prefix(end + 2);
      stripped = true;
    } else {
      size_t word_end = 0;
      while (word_end < head.size() && head[word_end] != ' ') ++word_end;
      const absl::string_view word = head.substr(0, word_end);
      for (absl::string_view specifier : kSpecifiers) {
        stripped = stripped || word == specifier;
      }
      stripped = stripped || (word_end < head.size() && IsMacroName(word));
      if (stripped) head.remove_prefix(word_end);
    }
  }
  return head;
}

// Words that begin a statement which is not a declaration of a function.
constexpr absl::string_view kNotADeclaration[] = {
    "return", "if",      "while", "for",    "switch", "static_assert",
    "using",  "typedef", "throw", "delete", "case"};

// The name of the function `statement` declares and its return type, when it
// declares one: the identifier before the first '(' outside template
// arguments; the return type before it, or after "->" for "auto F(...) -> T".
bool ParseFunction(absl::string_view statement, std::string* name,
                   std::string* return_type) {
  int angle_depth = 0;
  size_t open = absl::string_view::npos;
  for (size_t i = 0; i < statement.size(); ++i) {
    const char c = statement[i];
    if (c == '<') ++angle_depth;
    if (c == '>' && angle_depth > 0) --angle_depth;
    if (c == '(' && angle_depth == 0) {
      open = i;
      break;
    }
  }
  if (open == absl::string_view::npos) return false;
  size_t end = open;
  while (end > 0 && statement[end - 1] == ' ') --end;
  size_t start = end;
  while (start > 0 && IsWordChar(statement[start - 1])) --start;
  if (start == end) return false;  // a function pointer or an operator
  absl::string_view head = statement.substr(0, start);
  if (head.find('=') != absl::string_view::npos) return false;  // a variable
  for (absl::string_view word : kNotADeclaration) {
    if (HasWord(head, word)) return false;
  }
  *name = std::string(statement.substr(start, end - start));
  *return_type = std::string(ReturnTypeOf(head));
  const size_t arrow = statement.find("->", open);
  if (HasWord(head, "auto") && arrow != absl::string_view::npos) {
    *return_type = std::string(statement.substr(arrow + 2));
  }
  return true;
}

}  // namespace

std::set<std::string> DeclaredPolicyAliases(
    absl::string_view header_text, const std::set<std::string>& known_aliases) {
  return TypesOf(Statements(CodeOnly(header_text)), known_aliases)
      .owning_aliases;
}

std::set<std::string> DeclaredPolicyFactories(
    absl::string_view header_text, const std::set<std::string>& known_aliases) {
  const std::vector<Statement> statements = Statements(CodeOnly(header_text));
  const PolicyTypes types = TypesOf(statements, known_aliases);
  std::set<std::string> factories;
  for (const Statement& statement : statements) {
    std::string name, return_type;
    if (statement.at_namespace_scope &&
        ParseFunction(statement.text, &name, &return_type) &&
        types.Owns(return_type)) {
      factories.insert(name);
    }
  }
  return factories;
}

}  // namespace test
}  // namespace sstfilter
