//===- CallGroups.cpp - Input-consistent folding of call groups -----------===//

#include "phaedrus/Trace/CallGroups.h"

#include <algorithm>

using namespace mlir::phaedrus::trace;

//===----------------------------------------------------------------------===//
// CallGroupTable
//===----------------------------------------------------------------------===//

void CallGroupTable::setEntry(uint32_t token, uint32_t callee) {
  tokens[token] = {Kind::Entry, kNone, callee, kNone, 0};
}

void CallGroupTable::setCall(uint32_t token, uint32_t caller, uint32_t callee) {
  tokens[token] = {Kind::Call, caller, callee, kNone, 0};
}

void CallGroupTable::setPath(uint32_t token, uint32_t function) {
  tokens[token] = {Kind::Path, function, kNone, kNone, 0};
}

uint32_t CallGroupTable::addGroup(const std::vector<uint32_t> &members,
                                  std::string &error) {
  if (members.size() < 2 || members.size() > kMaxMembers) {
    error = "a group has 2 to " + std::to_string(kMaxMembers) +
            " members, not " + std::to_string(members.size());
    return kNone;
  }
  uint32_t group = static_cast<uint32_t>(groups.size());
  for (uint32_t member : members) {
    if (member >= tokens.size() || tokens[member].kind != Kind::Call) {
      error = "member " + std::to_string(member) + " is not a call site";
      return kNone;
    }
    if (tokens[member].caller != tokens[members[0]].caller) {
      error = "member " + std::to_string(member) +
              " is a call site of another function than the first member";
      return kNone;
    }
    if (tokens[member].group != kNone) {
      error = "call site " + std::to_string(member) + " is in two groups";
      return kNone;
    }
  }
  for (size_t i = 0; i < members.size(); ++i) {
    tokens[members[i]].group = group;
    tokens[members[i]].position = static_cast<uint32_t>(i);
  }
  groups.push_back(members);
  prefixTokens.emplace_back(members.size() + 1, kNone);
  return group;
}

bool CallGroupTable::setGroupToken(uint32_t token, uint32_t group,
                                   uint32_t length, std::string &error) {
  if (group >= groups.size() || length < 2 || length > groups[group].size()) {
    error = "no group " + std::to_string(group) + " with " +
            std::to_string(length) + " members";
    return false;
  }
  if (prefixTokens[group][length] != kNone) {
    error = "two tokens stand for the same group";
    return false;
  }
  uint32_t first = groups[group][0];
  tokens[token] = {Kind::Group, tokens[first].caller, kNone, group, length};
  prefixTokens[group][length] = token;
  ++numGroupTokens;
  return true;
}

//===----------------------------------------------------------------------===//
// CallGroupFolder
//===----------------------------------------------------------------------===//

bool CallGroupFolder::popTo(uint32_t caller, std::vector<uint32_t> *popped) {
  while (!stack.empty() && stack.back().function != caller) {
    if (popped)
      popped->push_back(stack.back().function);
    stack.pop_back();
  }
  return !stack.empty();
}

void CallGroupFolder::resolve(Next next, uint32_t caller) {
  // Checks are settled last to first: a member that has to stay becomes the
  // next kept token of the members left out before it.
  for (size_t i = pending.size(); i-- > 0;) {
    Check &check = pending[i];
    auto begin = popped.begin() + check.poppedBegin;
    auto end = popped.begin() + check.poppedEnd;
    bool reinserted = next == Next::End ||
                      (next == Next::Call && std::find(begin, end, caller) == end);
    uint8_t &length = occurrenceLengths[check.occurrence];
    if (!reinserted && length >= check.position)
      length = static_cast<uint8_t>(check.position - 1);
    if (length < check.position) {
      next = Next::Call;
      caller = check.caller;
    }
  }
  pending.clear();
  popped.clear();
}

void CallGroupFolder::analyze(const uint32_t *tokens, size_t count) {
  using Kind = CallGroupTable::Kind;
  for (size_t i = 0; i < count; ++i) {
    uint32_t token = tokens[i];
    source.add(token);
    const CallGroupTable::Token &info = table[token];
    if (info.kind != Kind::Call) {
      resolve(Next::NoPop, CallGroupTable::kNone);
      if (info.kind == Kind::Entry)
        stack.push_back({info.callee});
      continue;
    }
    size_t poppedBegin = popped.size();
    bool found = popTo(info.caller, &popped);
    if (found) {
      Frame &top = stack.back();
      if (top.group != CallGroupTable::kNone && top.group == info.group &&
          info.position == top.matched &&
          occurrenceLengths[top.occurrence] == top.matched) {
        // The frame's next child is its group's next member: leave it out
        // if the next kept token brings it back.
        pending.push_back({top.occurrence, top.matched + 1, info.caller,
                           poppedBegin, popped.size()});
        ++top.matched;
        occurrenceLengths[top.occurrence] = static_cast<uint8_t>(top.matched);
        if (top.matched == table.members(top.group).size())
          top.group = CallGroupTable::kNone;
        stack.push_back({info.callee});
        continue;
      }
    }
    resolve(Next::Call, info.caller);
    if (!found)
      stack.push_back({info.caller});
    Frame &top = stack.back();
    top.group = CallGroupTable::kNone;
    if (info.group != CallGroupTable::kNone && info.position == 0) {
      top.group = info.group;
      top.matched = 1;
      top.occurrence = occurrenceLengths.size();
      occurrenceLengths.push_back(1);
    }
    stack.push_back({info.callee});
  }
}

void CallGroupFolder::finishAnalysis() {
  resolve(Next::End, CallGroupTable::kNone);
  stack.clear();
}

void CallGroupFolder::rewrite(const uint32_t *tokens, size_t count,
                              std::vector<uint32_t> &out) {
  using Kind = CallGroupTable::Kind;
  for (size_t i = 0; i < count; ++i) {
    uint32_t token = tokens[i];
    const CallGroupTable::Token &info = table[token];
    if (info.kind != Kind::Call) {
      out.push_back(token);
      if (info.kind == Kind::Entry)
        stack.push_back({info.callee});
      continue;
    }
    bool found = popTo(info.caller, nullptr);
    if (found) {
      Frame &top = stack.back();
      if (top.group != CallGroupTable::kNone && top.group == info.group &&
          info.position == top.matched && top.matched < top.limit) {
        ++top.matched;
        if (top.matched == top.limit)
          top.group = CallGroupTable::kNone;
        ++dropped;
        stack.push_back({info.callee});
        continue;
      }
    }
    if (!found)
      stack.push_back({info.caller});
    Frame &top = stack.back();
    top.group = CallGroupTable::kNone;
    uint32_t written = token;
    if (info.group != CallGroupTable::kNone && info.position == 0) {
      uint32_t length = occurrenceLengths[nextOccurrence++];
      if (length >= 2) {
        written = table.groupToken(info.group, length);
        top.group = info.group;
        top.matched = 1;
        top.limit = length;
      }
    }
    out.push_back(written);
    stack.push_back({info.callee});
  }
}

//===----------------------------------------------------------------------===//
// CallGroupRepeatFolder
//===----------------------------------------------------------------------===//

void CallGroupRepeatFolder::endAnalysis() {
  if (!analyzed)
    groups.finishAnalysis();
  analyzed = true;
}

void CallGroupRepeatFolder::rewrite(const uint32_t *tokens, size_t count) {
  endAnalysis();
  rewritten.clear();
  groups.rewrite(tokens, count, rewritten);
  if (folding)
    repeats.push(rewritten.data(), rewritten.size());
  expander.push(rewritten.data(), rewritten.size(), digest);
}

bool CallGroupRepeatFolder::finish() {
  endAnalysis(); // (an empty trace has no rewrite)
  expander.finish(digest);
  repeats.finish();
  return digest == groups.sourceDigest();
}
