// `npm run bench`: every benchmark in bench/, one after the other.
import './course-generation';
