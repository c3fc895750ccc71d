// notation_test.cpp: both position forms round-trip, and every malformed input is refused.
#include "game/notation.h"

#include <gtest/gtest.h>

namespace kalah {
namespace {

TEST(Notation, RelativeRoundTrip) {
  for (const char* text : {"4,4,4,4,4,4/4,4,4,4,4,4/0,0", "0,3,1/2,0,0/10,9", "7/0/3,5",
                           "1,2,3,4,5,6,7,8/8,7,6,5,4,3,2,1/0,0"}) {
    const ParsedPosition p = parse_position(text);
    EXPECT_EQ(format_relative(p.position, p.pits), text);
  }
}

TEST(Notation, StoresDefaultToZero) {
  const ParsedPosition p = parse_position(" 4,4,4/4,4,4 ");
  EXPECT_EQ(p.pits, 3);
  EXPECT_EQ(p.position.mover_store, 0);
  EXPECT_EQ(p.position.opponent_store, 0);
  EXPECT_EQ(format_relative(p.position, 3), "4,4,4/4,4,4/0,0");
}

TEST(Notation, AbsoluteFormMapsToTheMover) {
  // Bins: South 1,2,3 store 7; North 4,5,6 store 8; North to move.
  const ParsedPosition n = parse_position("1,2,3,7,4,5,6,8,N");
  EXPECT_EQ(n.pits, 3);
  EXPECT_EQ(n.position.mover, Side::kNorth);
  EXPECT_EQ(format_relative(n.position, 3), "4,5,6/1,2,3/8,7");
  EXPECT_EQ(format_absolute(n.position, 3), "1,2,3,7,4,5,6,8,N");
  const ParsedPosition s = parse_position("S: 1 2 3 7 4 5 6 8");
  EXPECT_EQ(s.position.mover, Side::kSouth);
  EXPECT_EQ(format_relative(s.position, 3), "1,2,3/4,5,6/7,8");
  EXPECT_EQ(format_absolute(s.position, 3), "1,2,3,7,4,5,6,8,S");
  // Relative -> absolute -> relative.
  const ParsedPosition r = parse_position("0,3,1,12,2,0/0,1,9,0,0,4/5,6");
  const ParsedPosition back = parse_position(format_absolute(r.position, 6));
  EXPECT_EQ(back.position, r.position);
}

TEST(Notation, ExpectedPitsMustAgree) {
  EXPECT_NO_THROW(parse_position("1,2/3,4", 2));
  EXPECT_THROW(parse_position("1,2/3,4", 3), std::invalid_argument);
}

void expect_rejected(const std::string& text, const std::string& mentions) {
  try {
    parse_position(text);
    ADD_FAILURE() << "accepted '" << text << "'";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(mentions), std::string::npos) << "message: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "message is not one line: " << msg;
  }
}

TEST(Notation, MalformedPositionsAreRejectedWithAReason) {
  expect_rejected("", "empty position");
  expect_rejected("1,2,3/1,2", "different lengths");
  expect_rejected("1,2,3,4,5,6,7,8,9/1,2,3,4,5,6,7,8,9", "9 pits per row");
  expect_rejected("1,x,3/1,2,3", "not a number");
  expect_rejected("1,2.5,3/1,2,3", "not a number");
  expect_rejected("1,-2,3/1,2,3", "negative");
  expect_rejected("1,300,3/1,2,3", "at most 255");
  expect_rejected("100,100/50,50", "seeds in all");
  expect_rejected("1,2,3/1,2,3/4", "two numbers");
  expect_rejected("1,2,3/1,2,3/4,5,6", "two numbers");
  expect_rejected("1,2,3/1,2,3/a,b", "not a number");
  expect_rejected("1,,3/1,2,3", "empty pit 2");
  expect_rejected("1,2/3,4/5,6/7", "side-relative form");
  expect_rejected("/", "empty pit 1");
  expect_rejected("1,2,3,4,5", "side to move");
  expect_rejected("1,2,3,4,5,S", "2m+2 bins");
  expect_rejected("S,1,2", "2m+2 bins");
  expect_rejected("1,2,3,x,S", "not a number");
}

TEST(Notation, Turns) {
  EXPECT_EQ(parse_turn("3-6-1", 6), (std::vector<int>{2, 5, 0}));
  EXPECT_EQ(format_turn({2, 5, 0}), "3-6-1");
  EXPECT_EQ(parse_turn("4", 6), std::vector<int>{3});
  EXPECT_THROW(parse_turn("7", 6), std::invalid_argument);
  EXPECT_THROW(parse_turn("0", 6), std::invalid_argument);
  EXPECT_THROW(parse_turn("3--1", 6), std::invalid_argument);
  EXPECT_THROW(parse_turn("", 6), std::invalid_argument);
  EXPECT_THROW(parse_turn("a", 6), std::invalid_argument);
}

TEST(Notation, DrawingShowsBothRowsAndStores) {
  const ParsedPosition p = parse_position("1,2,3/4,5,6/7,8");
  const std::string d = draw(p.position, 3);
  EXPECT_NE(d.find("South to move"), std::string::npos);
  EXPECT_NE(d.find("North"), std::string::npos);
  // The opponent's row is drawn right to left on top: 6 5 4.
  EXPECT_NE(d.find("  6   5   4"), std::string::npos) << d;
  EXPECT_NE(d.find("  1   2   3"), std::string::npos) << d;
}

}  // namespace
}  // namespace kalah
