-- An owner may require two-step sign-in of every member of the team: off for every merchant until its owner turns it on.
ALTER TABLE "merchants" ADD COLUMN "team_requires_second_factor" boolean DEFAULT false NOT NULL;
