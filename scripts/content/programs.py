"""Phrases for the sample workout programs (data/sample/programs.jsonl), written by the
Scout team. build_data.py combines them with data/exercises.csv under a seeded stream.
"""

GOALS = [("strength", 0.20), ("hypertrophy", 0.18), ("endurance", 0.12),
         ("fat_loss", 0.18), ("mobility", 0.10), ("general_fitness", 0.22)]
LEVELS = [("beginner", 0.45), ("intermediate", 0.38), ("advanced", 0.17)]

# Where the program is done: the equipment it may use.
SETTINGS = {
    "gym": ["none", "dumbbell", "barbell", "kettlebell", "machine", "band", "bench",
            "pull_up_bar", "cable", "rower", "bike", "treadmill", "box"],
    "home": ["none", "band", "dumbbell"],
    "bodyweight": ["none", "pull_up_bar"],
    "dumbbells": ["none", "dumbbell", "bench"],
    "kettlebell": ["none", "kettlebell"],
    "dog": ["none"],  # outdoors, with the dog
}
SETTING_WEIGHTS = {
    "strength": [("gym", 0.6), ("dumbbells", 0.15), ("kettlebell", 0.15), ("home", 0.1)],
    "hypertrophy": [("gym", 0.7), ("dumbbells", 0.2), ("home", 0.1)],
    "endurance": [("gym", 0.35), ("bodyweight", 0.3), ("dog", 0.2), ("home", 0.15)],
    "fat_loss": [("gym", 0.35), ("home", 0.25), ("bodyweight", 0.2), ("kettlebell", 0.1),
                 ("dog", 0.1)],
    "mobility": [("home", 0.6), ("bodyweight", 0.3), ("gym", 0.1)],
    "general_fitness": [("gym", 0.35), ("home", 0.2), ("dumbbells", 0.15),
                        ("bodyweight", 0.15), ("kettlebell", 0.05), ("dog", 0.10)],
}

# Share of each exercise kind in a program, by goal.
KIND_MIX = {
    "strength": [("strength", 0.78), ("core", 0.14), ("plyometric", 0.04), ("mobility", 0.04)],
    "hypertrophy": [("strength", 0.86), ("core", 0.14)],
    "endurance": [("cardio", 0.45), ("strength", 0.22), ("core", 0.15), ("plyometric", 0.1),
                  ("mobility", 0.08)],
    "fat_loss": [("cardio", 0.34), ("strength", 0.3), ("plyometric", 0.18), ("core", 0.18)],
    "mobility": [("mobility", 0.8), ("core", 0.2)],
    "general_fitness": [("strength", 0.45), ("cardio", 0.2), ("core", 0.15),
                        ("mobility", 0.1), ("plyometric", 0.1)],
}
# Order within a session: warm-up drills, jumps, lifts, core, conditioning, stretches.
KIND_ORDER = ["plyometric", "strength", "core", "cardio", "mobility"]

# Exercises done for time rather than reps ("seconds" instead of "reps"), by style:
#   hold      isometric holds and carries, 20-60 s
#   stretch   static stretches, 30-90 s
#   steady    continuous cardio, one set of 10-40 min
#   interval  hard intervals, 20-60 s, 4-6 sets
#   timed     bodyweight conditioning, 20-45 s
TIMED = {
    "Plank": "hold", "Side plank": "hold", "Hollow hold": "hold", "Wall sit": "hold",
    "Dead hang": "hold", "Superman hold": "hold", "Deep squat hold": "hold",
    "Farmer's carry": "hold", "Suitcase carry": "hold",
    "Child's pose": "stretch", "Pigeon stretch": "stretch", "Couch stretch": "stretch",
    "Kneeling hip flexor stretch": "stretch", "Standing hamstring stretch": "stretch",
    "Calf stretch": "stretch", "Doorway chest stretch": "stretch", "Downward dog": "stretch",
    "Rowing machine": "steady", "Stationary bike": "steady", "Treadmill run": "steady",
    "Incline treadmill walk": "steady", "Brisk walk": "steady", "Easy run": "steady",
    "Rowing intervals": "interval", "Bike sprints": "interval", "Hill sprint": "interval",
    "Jumping jacks": "timed", "High knees": "timed", "Butt kicks": "timed",
    "Mountain climber": "timed", "Bear crawl": "timed", "Shadow boxing": "timed",
}

# Too demanding for a beginner program.
NOT_FOR_BEGINNERS = {"Nordic hamstring curl", "Depth jump", "Power clean", "Plyometric push-up",
                     "Tuck jump", "Hanging leg raise", "Turkish get-up", "Pull-up", "Chin-up"}

# Strength exercises done for moderate to high reps whatever the goal: single-joint
# (isolation) moves, and bodyweight moves (reps depend on the level).
ISOLATION = {"Leg extension", "Lying leg curl", "Standing calf raise", "Seated calf raise",
             "Single-leg calf raise", "Dumbbell fly", "Cable fly", "Cable triceps pushdown",
             "Overhead triceps extension", "Skull crusher", "Barbell curl", "Dumbbell curl",
             "Hammer curl", "Band curl", "Wrist curl", "Lateral raise", "Rear delt fly",
             "Face pull", "Band pull-apart", "Dumbbell shrug", "Lateral band walk",
             "Glute bridge", "Cable pull-through", "Back extension", "Band row"}
BODYWEIGHT_HARD = {"Pull-up", "Chin-up", "Pike push-up", "Diamond push-up",
                   "Nordic hamstring curl", "Inverted row", "Bench dip"}
BODYWEIGHT_EASY = {"Bodyweight squat", "Push-up", "Incline push-up", "Reverse lunge",
                   "Box step-up", "Walking lunge"}

# Program names: {weeks}, {days}, {level} (Beginner/Intermediate/Advanced) and {kit}
# (the setting's word) are filled in.
KIT_WORD = {"gym": "Gym", "home": "Home", "bodyweight": "Bodyweight", "dumbbells": "Dumbbell",
            "kettlebell": "Kettlebell", "dog": "Dog Walker's"}
NAMES = {
    "strength": ["{weeks}-Week Strength Builder", "{kit} Strength Basics",
                 "{level} Strength, {days} Days a Week", "Stronger in {weeks} Weeks",
                 "{kit} Strength Ladder", "Steady Strength",
                 "Big Lifts, Simple Plan", "Strength Block {weeks}", "Heavy and Honest"],
    "hypertrophy": ["{kit} Muscle Builder", "{weeks}-Week Hypertrophy Block",
                    "{level} Size and Shape", "Push Pull Legs ({days} days)",
                    "Upper/Lower Split", "Volume Phase", "{kit} Build", "Pump and Progress"],
    "endurance": ["{weeks}-Week Engine Builder", "{kit} Endurance",
                  "Aerobic Base Builder", "{level} Stamina Plan", "Go the Distance",
                  "Long and Steady", "Base Miles", "Lungs and Legs"],
    "fat_loss": ["{kit} Fat Burner", "{weeks}-Week Lean Start", "{level} Circuit Plan",
                 "Sweat Sessions ({days} a week)", "Lighter by Summer", "Move More, {weeks} Weeks",
                 "Quick Circuits", "Metabolic Mix"],
    "mobility": ["Daily Mobility Reset", "{weeks}-Week Flexibility Plan",
                 "Desk Worker's Unlock", "Hips and Shoulders", "{level} Mobility Flow",
                 "Morning Stretch Routine", "Move Better", "Loose and Limber"],
    "general_fitness": ["{kit} All-Rounder", "{weeks}-Week Fitness Kickstart",
                        "{level} Full Body, {days} Days", "Fit for Life", "Everyday Fitness",
                        "Back to Basics", "Total Body Tune-up", "Weekend Warrior Prep"],
}
DOG_NAMES = ["Walkies Workout", "Fit with Fido", "Park Bench Circuit", "Lead and Legs",
             "Canicross Starter", "Two Legs, Four Legs"]

# Description sentences. {level}, {a_level} ("a beginner", "an intermediate"), {weeks},
# {days} (a word) and {kit_phrase} are filled in.
KIT_PHRASE = {"gym": "in a well-equipped gym", "home": "at home with a band and a pair of dumbbells",
              "bodyweight": "with no equipment beyond a pull-up bar",
              "dumbbells": "with dumbbells and a bench",
              "kettlebell": "with a single kettlebell", "dog": "outdoors, with your dog along"}
INTRO = {
    "strength": "{a_level} strength plan {kit_phrase}: {days} sessions a week for {weeks} weeks.",
    "hypertrophy": "{a_level} muscle-building plan {kit_phrase}, {days} sessions a week for {weeks} weeks.",
    "endurance": "Build stamina {kit_phrase}: {a_level} plan of {days} sessions a week over {weeks} weeks.",
    "fat_loss": "{a_level} circuit-style plan {kit_phrase} to burn energy and build fitness, {days} sessions a week for {weeks} weeks.",
    "mobility": "{a_level} mobility routine {kit_phrase}, {days} short sessions a week for {weeks} weeks.",
    "general_fitness": "A balanced {level} plan {kit_phrase}: strength, conditioning and a little mobility, {days} sessions a week for {weeks} weeks.",
}
TIPS = {
    "strength": ["Add a little weight each week while your form stays clean.",
                 "Rest two to three minutes between heavy sets.",
                 "Stop each set with one or two good reps left in the tank.",
                 "Film a set now and then to check your technique."],
    "hypertrophy": ["Take most sets close to failure, with controlled lowering.",
                    "Rest about 90 seconds between sets.",
                    "When you hit the top of the rep range, add weight.",
                    "Eat enough protein and sleep well: that is where growth happens."],
    "endurance": ["Keep most sessions at a pace where you could still talk.",
                  "Increase total time by no more than about ten percent a week.",
                  "One longer, easy session a week does most of the work."],
    "fat_loss": ["Move briskly between exercises and keep rests short.",
                 "Pair the plan with steady eating habits for the best results.",
                 "Scale the jumps down to steps if your knees complain."],
    "mobility": ["Breathe slowly and never force a stretch into pain.",
                 "Little and often beats one long session.",
                 "Good as a warm-up before walks or runs, or on rest days."],
    "general_fitness": ["Swap any exercise you dislike for one of the same kind.",
                        "Aim to finish each session feeling better than when you started.",
                        "Consistency matters more than intensity at first."],
}
LEVEL_TIPS = {
    "beginner": ["New to training? Start lighter than you think and learn the movements.",
                 "Check with a doctor first if you have a health condition."],
    "intermediate": ["Log your sessions so you can see progress week to week."],
    "advanced": ["Deload in the final week: halve the sets and keep the weights."],
}
DOG_TIP = ("Walks and runs are done with the dog; build up distance gradually for young "
           "or older dogs, avoid hot weather and hard surfaces, and bring water for both of you.")
