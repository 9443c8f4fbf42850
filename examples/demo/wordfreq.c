/* wordfreq: counts words read from standard input or from the files named
 * on its command line, and prints the most frequent ones. A small program
 * whose behaviour depends on its input: long texts spend their time in
 * hashing and table growth, short ones in start-up. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
  char *word;
  unsigned long count;
};

static struct entry *table;
static size_t capacity, used;

static unsigned long hash(const char *s) {
  unsigned long h = 5381;
  while (*s)
    h = h * 33 + (unsigned char)*s++;
  return h;
}

static void grow(void);

static void insert(const char *word) {
  if (2 * (used + 1) > capacity)
    grow();
  size_t i = hash(word) & (capacity - 1);
  while (table[i].word && strcmp(table[i].word, word) != 0)
    i = (i + 1) & (capacity - 1);
  if (!table[i].word) {
    table[i].word = strdup(word);
    ++used;
  }
  ++table[i].count;
}

static void grow(void) {
  struct entry *old = table;
  size_t oldCapacity = capacity;
  capacity = capacity ? 2 * capacity : 16;
  table = calloc(capacity, sizeof *table);
  used = 0;
  for (size_t i = 0; i < oldCapacity; ++i) {
    if (old[i].word) {
      size_t j = hash(old[i].word) & (capacity - 1);
      while (table[j].word)
        j = (j + 1) & (capacity - 1);
      table[j] = old[i];
      ++used;
    }
  }
  free(old);
}

static void count_stream(FILE *in) {
  char word[256];
  size_t n = 0;
  int c;
  while ((c = fgetc(in)) != EOF) {
    if (isalnum(c) && n + 1 < sizeof word) {
      word[n++] = (char)tolower(c);
    } else if (n) {
      word[n] = 0;
      insert(word);
      n = 0;
    }
  }
  if (n) {
    word[n] = 0;
    insert(word);
  }
}

static int by_count(const void *a, const void *b) {
  const struct entry *x = a, *y = b;
  if (x->count != y->count)
    return x->count < y->count ? 1 : -1;
  return strcmp(x->word, y->word);
}

static void report(size_t top) {
  struct entry *all = malloc((used ? used : 1) * sizeof *all);
  size_t n = 0;
  for (size_t i = 0; i < capacity; ++i)
    if (table[i].word)
      all[n++] = table[i];
  qsort(all, n, sizeof *all, by_count);
  for (size_t i = 0; i < n && i < top; ++i)
    printf("%7lu %s\n", all[i].count, all[i].word);
  free(all);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    count_stream(stdin);
  } else {
    for (int i = 1; i < argc; ++i) {
      FILE *in = fopen(argv[i], "r");
      if (!in) {
        perror(argv[i]);
        return 1;
      }
      count_stream(in);
      fclose(in);
    }
  }
  report(10);
  return 0;
}
