// lessons/srcmap: its references, scenarios and exercises (lessonSuite.ts).
import { describeLesson } from '../lessonSuite';

describeLesson('srcmap');
